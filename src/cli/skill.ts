import { defineCommand } from 'citty';
import { loadEnv } from '../core/config/environment.ts';
import { InputError } from '../core/errors.ts';
import { serveSkill } from '../mcp/serve.ts';
import { BUILTIN_SKILLS, loadSkill } from '../skills/catalog.ts';

const serve = defineCommand({
  meta: { description: 'Serve one built-in skill over MCP stdio (the run starts these itself)' },
  args: { name: { type: 'positional', required: true, description: `skill name (${[...BUILTIN_SKILLS].join(', ')})` } },
  async run({ args }) {
    const skill = await loadSkill(args.name);
    if (!skill) throw new InputError(`unknown skill '${args.name}'`, `skills: ${[...BUILTIN_SKILLS].join(', ')}`);
    await serveSkill(skill, loadEnv());
    // tool calls still running (a child process, a timer) must not keep a server without a client alive
    process.exit(0);
  },
});

export default defineCommand({
  meta: { description: 'Tool servers of the built-in skills' },
  subCommands: { serve },
});
