import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { loadEnv } from '../core/config/environment.ts';
import { InputError } from '../core/errors.ts';
import { defaultMemoryDataDir, startMemoryServer } from '../memory/server.ts';

export default defineCommand({
  meta: { description: 'Run the embedded memory server (SQLite, speaking the part of the Letta REST API svc uses)' },
  args: {
    port: { type: 'string', description: 'port (default 8283; 0 picks a free port)' },
    host: { type: 'string', description: 'address to bind (default 127.0.0.1); set MEMBACKEND_API_KEY before binding anything else' },
    'data-dir': { type: 'string', description: 'directory of the database (default ~/.svc/memory)' },
  },
  async run({ args }) {
    const env = loadEnv();
    const port = portArg(args.port ?? '8283');
    const host = args.host ?? '127.0.0.1';
    const dataDir = resolve(args['data-dir'] ?? defaultMemoryDataDir(env));
    const apiKey = env.MEMBACKEND_API_KEY || null;
    const server = startMemoryServer({ port, host, dataDir, apiKey });
    process.stderr.write(`svc memory: serving ${dataDir} at ${server.url}${apiKey ? ' (MEMBACKEND_API_KEY required)' : ''}\n`);
    await new Promise<void>((done) => {
      const stop = () => {
        process.stderr.write('svc memory: stopping\n');
        void server.stop().then(done);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  },
});

function portArg(raw: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n > 65535) throw new InputError(`--port must be a whole number from 0 to 65535, got '${raw}'`);
  return n;
}
