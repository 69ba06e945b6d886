import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { loadEnv } from '../core/config/environment.ts';
import { defaultMemoryDataDir, startMemoryServer } from '../memory/server.ts';
import { isLoopback } from '../http/loopback.ts';
import { portArg, stopOnSignal } from './serve-args.ts';
import { logFor } from '../core/log.ts';

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
    if (!isLoopback(host) && !apiKey) {
      logFor('svc memory').warn(`warning: listening on ${host} without MEMBACKEND_API_KEY: anyone who can reach this address can read and change the memory`);
    }
    const server = startMemoryServer({ port, host, dataDir, apiKey, env });
    logFor('svc memory').info(`serving ${dataDir} at ${server.url}${apiKey ? ' (MEMBACKEND_API_KEY required)' : ''}`);
    await stopOnSignal('svc memory', server.stop);
    return 0;
  },
});
