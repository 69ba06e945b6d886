import { defineCommand } from 'citty';
import { envValue } from '../core/config/env-vars.ts';
import { loadEnv } from '../core/config/environment.ts';
import { InputError } from '../core/errors.ts';
import { serveSkill } from '../mcp/serve.ts';
import { BUILTIN_SKILLS, loadSkill } from '../skills/catalog.ts';
import { portArg, stopOnSignal } from './serve-args.ts';
import { logFor } from '../core/log.ts';

/** Skills that also speak plain HTTP JSON (survey 1.3: the orchestrator only). */
const HTTP_SKILLS = new Set(['orchestrator-skill']);

const serve = defineCommand({
  meta: { description: 'Serve one built-in skill over MCP stdio (the run starts these itself), or orchestrator-skill over HTTP with --http' },
  args: {
    name: { type: 'positional', required: true, description: `skill name (${[...BUILTIN_SKILLS].join(', ')})` },
    http: { type: 'boolean', description: 'serve plain HTTP JSON on 127.0.0.1 instead of MCP stdio (orchestrator-skill only)' },
    port: { type: 'string', description: 'HTTP port (default SVC_ORCHESTRATOR_PORT, 9890; 0 picks a free one)' },
  },
  async run({ args }) {
    const skill = await loadSkill(args.name);
    if (!skill) throw new InputError(`unknown skill '${args.name}'`, `skills: ${[...BUILTIN_SKILLS].join(', ')}`);
    const env = loadEnv();
    if (args.port !== undefined && !args.http) throw new InputError('--port needs --http', 'svc skill serve orchestrator-skill --http --port N');
    if (args.http) {
      if (!HTTP_SKILLS.has(skill.name)) throw new InputError(`${skill.name} has no HTTP transport`, `--http serves ${[...HTTP_SKILLS].join(', ')}; other skills speak MCP stdio`);
      const { serveSkillHttp } = await import('../skills/orchestrator/http.ts');
      const port = portArg(args.port ?? envValue(env, 'SVC_ORCHESTRATOR_PORT') ?? '9890');
      const { server, url } = serveSkillHttp(skill, env, { host: '127.0.0.1', port });
      logFor(skill.name).info(`serving HTTP at ${url}`);
      await stopOnSignal(`${skill.name}`, () => server.stop(true));
      process.exit(0);
    }
    await serveSkill(skill, env);
    // tool calls still running (a child process, a timer) must not keep a server without a client alive
    process.exit(0);
  },
});

export default defineCommand({
  meta: { description: 'Tool servers of the built-in skills' },
  subCommands: { serve },
});
