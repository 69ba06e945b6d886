import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { effective, loadConfig } from '../core/config/config.ts';
import { loadEnv } from '../core/config/environment.ts';
import { InputError } from '../core/errors.ts';
import { checkpointsRoot } from '../core/workspace.ts';
import { locateDashboardRoot, ServerContext } from '../server/context.ts';
import { isLoopback } from '../http/loopback.ts';
import { parseOriginList } from '../server/origin.ts';
import { startDashboard } from '../server/serve.ts';
import { portArg, stopOnSignal } from './serve-args.ts';
import { logFor } from '../core/log.ts';

export default defineCommand({
  meta: { description: 'Start the dashboard: the web UI and its HTTP API, on 127.0.0.1' },
  args: {
    dir: { type: 'positional', required: false, description: 'a checkpoint (selected at start) or a workspace directory' },
    port: { type: 'string', description: 'port (default 8765; SVC_GUI_PORT wins; 0 picks a free port)' },
    host: { type: 'string', description: 'address to bind (default 127.0.0.1); anything else exposes an API without authentication' },
    'cors-origin': { type: 'string', description: 'web origins besides loopback ones whose pages may call the API, comma-separated (adds to SVC_GUI_CORS_ORIGINS)' },
  },
  async run({ args }) {
    const env = loadEnv();
    const pinned = env.SVC_CHECKPOINT_DIR ? resolve(env.SVC_CHECKPOINT_DIR) : undefined;
    const where = locateDashboardRoot(args.dir === undefined ? undefined : resolve(args.dir), checkpointsRoot(env), pinned);
    const cfg = loadConfig({ checkpoints: where.checkpointsRoot, checkpointDir: where.active ?? undefined });
    const port = Number(effective(cfg, 'gui_port', args.port === undefined ? undefined : portArg(args.port)).value);
    if (port > 65535) throw new InputError(`port ${port} is out of range`, 'use 0 to 65535');
    const host = args.host ?? '127.0.0.1';
    const token = env.SVC_GUI_TOKEN || null;
    const origins = new Set([...parseOriginList(env.SVC_GUI_CORS_ORIGINS ?? '', 'SVC_GUI_CORS_ORIGINS'), ...parseOriginList(args['cors-origin'] ?? '', '--cors-origin')]);
    const logMb = Number(effective(cfg, 'gui_access_log_max_mb').value);
    if (!isLoopback(host)) {
      logFor('svc viz').warn(`warning: listening on ${host}: ${token ? 'the API needs SVC_GUI_TOKEN, but traffic is not encrypted' : 'the API has no authentication; anyone who can reach this address can read and change your runs (set SVC_GUI_TOKEN, or use an SSH tunnel)'}`);
    }
    const ctx = new ServerContext(process.env, process.cwd(), where.checkpointsRoot, where.active, token, origins);
    const dashboard = startDashboard(ctx, { host, port, accessLogMaxBytes: logMb * 1024 * 1024 });
    const open = token ? ` (open ${dashboard.url}/#token=<SVC_GUI_TOKEN> in the browser)` : '';
    logFor('svc viz').info(`dashboard at ${dashboard.url}${open}`);
    logFor('svc viz').info(`checkpoints in ${where.checkpointsRoot}${where.active ? `; active: ${where.active}` : ''}`);
    await stopOnSignal('svc viz', dashboard.stop);
    return 0;
  },
});
