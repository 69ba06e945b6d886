import { defineCommand } from 'citty';
import { allEffective, loadConfig } from '../core/config/config.ts';
import { ENV_VARS } from '../core/config/env-vars.ts';
import { updateSettings } from '../core/config/update-settings.ts';
import { print, printJson, table } from './output.ts';

export default defineCommand({
  meta: { description: 'Show effective settings and where each comes from, or save new ones' },
  args: {
    config: { type: 'string', description: 'workflow file to resolve against (default: bundled)' },
    profile: { type: 'string', description: 'show the settings under a profile: laptop, hpc or cloud' },
    model: { type: 'string', description: 'save the model id' },
    'api-key': { type: 'string', description: "save the API key of the backend's provider to .env" },
    partition: { type: 'string', description: 'save the scheduler partition' },
    cpus: { type: 'string', description: 'save CPUs per job' },
    mem: { type: 'string', description: 'save memory per job, in GB' },
    env: { type: 'boolean', description: 'list the environment variables svc reads instead' },
    json: { type: 'boolean', description: 'print as JSON' },
  },
  run({ args }) {
    const cfg = loadConfig({ configPath: args.config, profile: args.profile });
    const update = { model: args.model, partition: args.partition, cpus: args.cpus, mem_gb: args.mem, api_key: args['api-key'] };
    if (Object.values(update).some((v) => v !== undefined)) {
      const changes = updateSettings(cfg, update);
      if (args.json) printJson(changes);
      else for (const c of changes) print(`saved ${c.what} to ${c.file}`);
      return;
    }
    if (args.env) {
      const rows = ENV_VARS.map((e) => {
        const value = cfg.env[e.name] || cfg.dotenv.get(e.name)?.value || '';
        return { name: e.name, value: e.secret ? (value ? '(set)' : '') : value, default: e.default, meaning: e.meaning };
      });
      if (args.json) printJson(rows);
      else print(table(['VARIABLE', 'VALUE', 'DEFAULT', 'MEANING'], rows.map((r) => [r.name, r.value || '-', r.default ?? '-', r.meaning])));
      return;
    }
    const rows = allEffective(cfg);
    if (args.json) printJson({ workflow: cfg.workflow.path, settings_file: cfg.savedPath, profile: cfg.profile ?? null, settings: rows });
    else {
      print(`workflow: ${cfg.workflow.path}`);
      print(`settings file: ${cfg.savedPath}\n`);
      print(table(['SETTING', 'VALUE', 'SOURCE'], rows.map((r) => [r.key, r.value === null ? '-' : String(r.value), r.source])));
    }
  },
});
