import { resolve } from 'node:path';
import { defineCommand } from 'citty';
import { loadEnv } from '../core/config/environment.ts';
import { InputError } from '../core/errors.ts';
import { DEFAULT_MAX_UPLOAD_MB, DEFAULT_REGISTRY_PORT, startRegistryServer } from '../registry/server.ts';
import { requireRoot } from '../registry/storage.ts';
import { TokenStore } from '../registry/tokens.ts';
import { print, warn } from './output.ts';
import { portArg, stopOnSignal } from './serve-args.ts';
import { logFor } from '../core/log.ts';

const dataDirArg = { 'data-dir': { type: 'string', description: 'registry data root (default SVC_REGISTRY_DATA; it must exist)' } } as const;

/** The data root: --data-dir, else SVC_REGISTRY_DATA; neither is an error, as is a root that does not exist. */
function dataRoot(given: string | undefined): string {
  const raw = given ?? loadEnv().SVC_REGISTRY_DATA ?? process.env.SVC_REGISTRY_DATA;
  if (raw === undefined || raw === '') throw new InputError('no registry data root', 'pass --data-dir DIR or set SVC_REGISTRY_DATA');
  return resolve(raw);
}

function maxUploadBytes(): number {
  const raw = process.env.SVC_REGISTRY_MAX_UPLOAD_MB;
  if (raw === undefined || raw === '') return DEFAULT_MAX_UPLOAD_MB * 1024 * 1024;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) throw new InputError(`SVC_REGISTRY_MAX_UPLOAD_MB must be a whole number of MiB, got '${raw}'`);
  return Number(raw) * 1024 * 1024;
}

/** Runs `use` on the token database of an existing data root, closing it after. */
function withTokens(given: string | undefined, use: (tokens: TokenStore) => void): void {
  const root = dataRoot(given);
  requireRoot(root);
  const tokens = new TokenStore(root);
  try {
    use(tokens);
  } finally {
    tokens.close();
  }
}

const serve = defineCommand({
  meta: { description: `Run the artifact registry (default 127.0.0.1:${DEFAULT_REGISTRY_PORT})` },
  args: {
    host: { type: 'string', description: 'address to bind (default 127.0.0.1)' },
    port: { type: 'string', description: `port (default ${DEFAULT_REGISTRY_PORT}; 0 picks a free port)` },
    ...dataDirArg,
  },
  async run({ args }) {
    const root = dataRoot(args['data-dir']);
    const server = startRegistryServer({ host: args.host ?? '127.0.0.1', port: portArg(args.port ?? String(DEFAULT_REGISTRY_PORT)), dataDir: root, maxUploadBytes: maxUploadBytes() });
    logFor('svc registry').info(`serving ${root} at ${server.url}`);
    await stopOnSignal('svc registry', server.stop);
    return 0;
  },
});

const issue = defineCommand({
  meta: { description: 'Issue a token for a user; it is shown once and stored only as a hash' },
  args: { user: { type: 'positional', required: true, description: 'user name' }, ...dataDirArg },
  run({ args }) {
    withTokens(args['data-dir'], (tokens) => {
      const { token, record } = tokens.issue(String(args.user));
      print(token);
      warn(`token ${record.id} for ${record.user}: shown once, keep it now`);
    });
  },
});

const list = defineCommand({
  meta: { description: 'List tokens: id, user, created, revoked (never the token)' },
  args: { ...dataDirArg },
  run({ args }) {
    withTokens(args['data-dir'], (tokens) => {
      const rows = tokens.list();
      if (rows.length === 0) print('no tokens');
      for (const r of rows) print(`${r.id}  ${r.user}  created ${r.created_at}  ${r.revoked_at ? `revoked ${r.revoked_at}` : 'active'}`);
    });
  },
});

const revoke = defineCommand({
  meta: { description: 'Revoke a token by its id (see token list)' },
  args: { 'token-id': { type: 'positional', required: true, description: 'token id (16 hex)' }, ...dataDirArg },
  run({ args }) {
    withTokens(args['data-dir'], (tokens) => {
      const r = tokens.revoke(String(args['token-id']));
      print(`revoked ${r.id} (${r.user}) at ${r.revoked_at}`);
    });
  },
});

const token = defineCommand({
  meta: { description: 'Registry tokens: issue <user>, list, revoke <token-id>' },
  subCommands: { issue, list, revoke },
});

export default defineCommand({
  meta: { name: 'registry', description: 'Artifact registry: serve, token issue|list|revoke' },
  subCommands: { serve, token },
});
