import type { Static } from '@sinclair/typebox';
import { version } from '../../package.json';
import { claimPid, type PidFile, releasePid } from '../core/checkpoint/pid.ts';
import { ConflictError, InputError } from '../core/errors.ts';
import { MANIFEST_FILE, MAX_MANIFEST_BYTES } from '../ear/manifest.ts';
import { httpApp } from '../http/app.ts';
import { HttpError, json } from '../http/response.ts';
import { serveHttp } from '../http/serve.ts';
import { PromoteBody, PromoteQuery } from '../schema/registry-api.ts';
import { type ArtifactMeta, ArtifactStore, BUNDLE_FILE, isArtifactId } from './storage.ts';
import { TokenStore } from './tokens.ts';
import { receiveMultipart } from './multipart.ts';
import { type Received, receiveUpload } from './upload.ts';
import { type Caller, mayPromote, parseVisibility, readAccess } from './visibility.ts';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEFAULT_REGISTRY_PORT = 8290;
export const DEFAULT_MAX_UPLOAD_MB = 4096;

export type RegistryServerOptions = {
  host: string;
  port: number;
  dataDir: string;
  /** refuse bodies over this (413); default DEFAULT_MAX_UPLOAD_MB MiB */
  maxUploadBytes?: number;
};

export type RegistryServer = { url: string; port: number; store: ArtifactStore; tokens: TokenStore; stop: () => Promise<void> };

/** The registry's HTTP app over a store and its tokens; `startRegistryServer` puts it on a port. */
function registryApp(store: ArtifactStore, tokens: TokenStore, maxUploadBytes: number) {
  return httpApp({ name: 'svc registry', bodies: { '/artifact': { read: 'stream' }, '/artifact/:id/promote': { limit: MAX_PROMOTE_BODY, read: 'json', optional: true } } })
    .get('/healthz', () => ({ ok: true }))
    .get('/version', () => ({ service: 'svc-registry', version }))
    .post('/artifact', ({ request }) => upload(request, store, tokens, maxUploadBytes))
    .get('/artifact/:id', ({ request, params }) => fetchBundle(request, artifactId(params.id), store, tokens, false))
    .head('/artifact/:id', ({ request, params }) => fetchBundle(request, artifactId(params.id), store, tokens, true))
    .get(`/artifact/:id/${MANIFEST_FILE}`, ({ request, params }) => fetchManifest(request, artifactId(params.id), store, tokens))
    .post('/artifact/:id/promote', ({ request, params, body, query }) => promote(request, artifactId(params.id), body, query.target, store, tokens), { body: PromoteBody, query: PromoteQuery })
    .delete('/artifact/:id', ({ request, params }) => remove(request, artifactId(params.id), store, tokens));
}

const MAX_PROMOTE_BODY = 64 * 1024;

function artifactId(id: string): string {
  if (!isArtifactId(id)) throw new HttpError(400, `'${id.slice(0, 80)}' is not an artifact id (16 lowercase hex characters)`);
  return id;
}

/** The caller of a request: null without a token; an unknown or revoked token is refused (401). */
function caller(req: Request, tokens: TokenStore): Caller {
  const header = req.headers.get('authorization');
  if (header === null || header === '') return null;
  if (!header.startsWith('Bearer ')) throw new HttpError(401, 'Authorization must be Bearer svc_<token>');
  const check = tokens.check(header.slice(7).trim());
  if (!check.ok) throw new HttpError(401, check.reason === 'revoked' ? 'this token has been revoked' : 'invalid token');
  return { user: check.user };
}

function requireCaller(req: Request, tokens: TokenStore): { user: string } {
  const c = caller(req, tokens);
  if (c === null) throw new HttpError(401, 'bearer token required: send Authorization: Bearer svc_<token>');
  return c;
}

/** Also the answer for another user's staged bundle, so the two cannot be told apart; the hint serves its owner. */
const absent = (id: string) => new HttpError(404, `no artifact ${id} (a staged bundle is seen only with its owner's token)`);

function metaOrFail(store: ArtifactStore, id: string): ArtifactMeta {
  const meta = store.meta(id);
  if (meta === null) throw absent(id);
  return meta;
}

/** A staged bundle is its owner's alone: to anyone else it does not exist, not even as a refusal. */
function hiddenFrom(meta: ArtifactMeta, who: Caller): boolean {
  return meta.visibility === 'staged' && who?.user !== meta.owner;
}

/** The meta of a bundle the caller may read, or the refusal. */
function readable(req: Request, id: string, store: ArtifactStore, tokens: TokenStore): ArtifactMeta {
  const who = caller(req, tokens);
  const meta = metaOrFail(store, id);
  if (hiddenFrom(meta, who)) throw absent(id);
  const access = readAccess(meta.visibility, meta.owner, who, Date.now());
  if (access === 'token') throw new HttpError(401, `artifact ${id} is ${meta.visibility}: a valid token is required`);
  if (access === 'refused') throw new HttpError(403, `artifact ${id} is ${meta.visibility}`);
  return meta;
}

function ownerOnly(req: Request, id: string, store: ArtifactStore, tokens: TokenStore): ArtifactMeta {
  const who = requireCaller(req, tokens);
  const meta = metaOrFail(store, id);
  if (hiddenFrom(meta, who)) throw absent(id);
  if (meta.owner !== who.user) throw new HttpError(403, `artifact ${id}: owner only`);
  return meta;
}

function fetchBundle(req: Request, id: string, store: ArtifactStore, tokens: TokenStore, head: boolean): Response {
  const meta = readable(req, id, store, tokens);
  const headers = {
    'Content-Type': 'application/gzip',
    'Content-Length': String(meta.size),
    'Content-Disposition': `attachment; filename="${id}.tar.gz"`,
    'X-Svc-Sha256': meta.sha256,
    'X-Svc-Visibility': meta.visibility,
  };
  // Bun sends a file with sendfile: the bundle never passes through memory whole
  return new Response(head ? null : Bun.file(store.file(id, BUNDLE_FILE)), { status: 200, headers });
}

function fetchManifest(req: Request, id: string, store: ArtifactStore, tokens: TokenStore): Response {
  const meta = readable(req, id, store, tokens);
  return new Response(Bun.file(store.file(id, MANIFEST_FILE)), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Svc-Visibility': meta.visibility } });
}

/**
 * POST /artifact: the bundle as the raw body (`?visibility=`, `X-Svc-Sha256`), or as the ARI
 * clients send it, a multipart form with the `bundle` file and `manifest`, `metadata` and
 * `visibility` fields. Either way the first upload is stored staged.
 */
async function upload(req: Request, store: ArtifactStore, tokens: TokenStore, maxBytes: number): Promise<Response> {
  const url = new URL(req.url);
  const who = requireCaller(req, tokens);
  const form = (req.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');
  const length = Number(req.headers.get('content-length') ?? Number.NaN);
  // a form carries its text fields beside the bundle
  const limit = form ? maxBytes + MAX_MANIFEST_BYTES + 1024 * 1024 : maxBytes;
  if (Number.isFinite(length) && length > limit) throw new HttpError(413, `upload of ${length} bytes over the registry's limit of ${maxBytes} bytes`);
  if (req.body === null) throw new InputError('empty upload: send the bundle tarball as the body');
  const got = form ? await receiveForm(req, store, maxBytes) : await receiveRaw(req, url, store, maxBytes);
  let installed = false;
  try {
    const existing = store.meta(got.id);
    if (existing === null) {
      // the first publish is always staged: only the owner promotes it
      const meta: ArtifactMeta = { id: got.id, visibility: 'staged', owner: who.user, created_at: new Date().toISOString(), sha256: got.sha256, size: got.size, promoted_at: null };
      writeFileSync(join(got.staging, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
      installed = store.install(got.staging, got.id);
      if (installed) return json(answer(meta, false), 201);
    }
    const meta = existing ?? metaOrFail(store, got.id);
    if (meta.sha256 !== got.sha256) throw new ConflictError(`artifact ${got.id} holds other bytes with the same id prefix`);
    // another user's staged bundle stays theirs and unknown: the answer is that of a first upload
    if (hiddenFrom(meta, who)) return json(answer({ ...meta, visibility: 'staged' }, false), 201);
    return json(answer(meta, true));
  } finally {
    if (!installed) rmSync(got.staging, { recursive: true, force: true });
  }
}

async function receiveRaw(req: Request, url: URL, store: ArtifactStore, maxBytes: number): Promise<Received> {
  visibilityOf(url.searchParams.get('visibility'));
  const expected = req.headers.get('x-svc-sha256');
  if (expected !== null && !/^[0-9a-f]{64}$/.test(expected.toLowerCase())) throw new InputError('X-Svc-Sha256 must be 64 hex characters');
  return receiveUpload(store, req.body as ReadableStream<Uint8Array>, { maxBytes, expectedSha: expected?.toLowerCase() ?? null, signal: req.signal });
}

/** The form's bundle, once its fields are found sound; a refused form leaves nothing staged. */
async function receiveForm(req: Request, store: ArtifactStore, maxBytes: number): Promise<Received> {
  const { received, fields } = await receiveMultipart(store, req, { maxBytes, signal: req.signal });
  try {
    visibilityOf(fields.get('visibility') ?? null);
    const metadata = parseField(fields.get('metadata') ?? '{}', 'metadata');
    if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) throw new InputError('the metadata field must be a JSON object');
    const manifest = fields.get('manifest');
    if (manifest !== undefined) sameBundle(parseField(manifest, 'manifest'), join(received.staging, MANIFEST_FILE));
    return received;
  } catch (err) {
    rmSync(received.staging, { recursive: true, force: true });
    throw err;
  }
}

/** The visibility asked for (default staged); the first upload is stored staged whatever it is. */
function visibilityOf(asked: string | null): void {
  const v = asked ?? 'staged';
  if (parseVisibility(v) === null) throw new InputError(`unknown visibility '${v.slice(0, 80)}'`, 'staged, unlisted, public, private-token or embargoed-until:YYYY-MM-DD');
}

function parseField(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InputError(`the ${name} field is not JSON`);
  }
}

/** A manifest field that names a bundle digest must name this bundle's: the tarball's manifest.lock is what is stored. */
function sameBundle(field: unknown, lockFile: string): void {
  const declared = (field as { bundle_sha256?: unknown } | null)?.bundle_sha256;
  if (typeof declared !== 'string' || !/^[0-9a-f]{64}$/.test(declared)) return;
  const actual = (JSON.parse(readFileSync(lockFile, 'utf8')) as { bundle_sha256?: unknown }).bundle_sha256;
  if (declared !== actual) throw new InputError(`the manifest field's bundle_sha256 ${declared} is not the bundle's (${String(actual)})`, 'send the manifest.lock of this bundle');
}

const answer = (meta: ArtifactMeta, duplicate: boolean) => ({ id: meta.id, ref: `svc://${meta.id}`, visibility: meta.visibility, sha256: meta.sha256, size: meta.size, duplicate });

/** POST /artifact/<id>/promote: the target from `?target=` (as the ARI clients send it) or a JSON body `{target}`. */
function promote(req: Request, id: string, body: Static<typeof PromoteBody>, fromQuery: string | undefined, store: ArtifactStore, tokens: TokenStore): Response {
  const meta = ownerOnly(req, id, store, tokens);
  const fromBody = body.target;
  if (fromQuery !== undefined && fromBody !== undefined && fromBody !== fromQuery) throw new InputError(`two targets: ?target=${fromQuery.slice(0, 40)} and ${fromBody.slice(0, 40)} in the body`, 'give one');
  const raw = fromQuery ?? fromBody;
  if (raw === undefined) throw new InputError('no promote target', 'give it as ?target=public (or unlisted), or as the JSON body {"target": "public"}');
  const target = parseVisibility(raw);
  if (target === null) throw new InputError(`unknown promote target ${JSON.stringify(raw)}`, 'unlisted, public, private-token or embargoed-until:YYYY-MM-DD');
  if (!mayPromote(meta.visibility, target)) throw new ConflictError(`artifact ${id} is ${meta.visibility}: ${target} would be a demotion`, 'visibility only widens: staged → unlisted, private-token or embargoed → public');
  if (target !== meta.visibility) store.saveMeta({ ...meta, visibility: target, promoted_at: new Date().toISOString() });
  return json({ id, visibility: target });
}

function remove(req: Request, id: string, store: ArtifactStore, tokens: TokenStore): Response {
  ownerOnly(req, id, store, tokens);
  store.remove(id);
  return json({ deleted: id });
}

/** The lock on a data root: one server per root, or the second would clear the first's uploads in flight. */
const SERVER_PID: PidFile = {
  name: '.svc_registry.pid',
  busy: (dir, pid) => new ConflictError(`registry data root ${dir} is served by process ${pid}`, 'stop that server first, or give this one another --data-dir'),
};

/**
 * Starts the registry on its data root (which must exist and be served by no other process);
 * `stop` lets requests in flight finish and gives the root up.
 */
export function startRegistryServer(opts: RegistryServerOptions): RegistryServer {
  const store = new ArtifactStore(opts.dataDir);
  claimPid(opts.dataDir, SERVER_PID);
  let tokens: TokenStore;
  try {
    // only the holder of the root may take what is in tmp/ for abandoned uploads
    store.clearTemp();
    tokens = new TokenStore(opts.dataDir);
  } catch (err) {
    releasePid(opts.dataDir, SERVER_PID.name);
    throw err;
  }
  const app = registryApp(store, tokens, opts.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_MB * 1024 * 1024);
  const close = () => {
    tokens.close();
    releasePid(opts.dataDir, SERVER_PID.name);
  };
  const listening = serveHttp((req) => app.handle(req), { host: opts.host, port: opts.port, portHint: 'pick another with --port, or stop the server already there', name: 'svc registry', close });
  return { url: listening.url, port: listening.port, stop: listening.stop, store, tokens };
}
