import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Elysia } from 'elysia';
import { loadEnv } from '../../core/config/environment.ts';
import { readSavedSettings, saveSettings } from '../../core/config/saved-settings.ts';
import { secretKeyPath, withoutSecretKeys } from '../../core/config/secrets.ts';
import { InputError, NotFoundError, oneLine } from '../../core/errors.ts';
import { readJsonObject } from '../../core/json-object.ts';
import { isMapping } from '../../core/values.ts';
import { BACKEND_NAMES, BackendError, type BackendErrorKind, getBackend } from '../../ear/backends/index.ts';
import { isVisibility, LOCAL_BACKEND, publishPreview } from '../../ear/publish-preview.ts';
import { promoteBundle, publishBundle } from '../../ear/publish.ts';
import { PUBLISH_RECORD_FILE } from '../../ear/status.ts';
import { runDirOf } from '../../run/run-ids.ts';
import { PublishBody, PublishPromoteBody, PublishSettingsBody } from '../../schema/dashboard-api.ts';
import type { ServerContext } from '../context.ts';
import { HttpError } from '../../http/response.ts';
import { routingChanges } from '../routing-guard.ts';
import { PublishPreviewQuery } from '../../schema/dashboard-api.ts';

const BACKEND_STATUS: Partial<Record<BackendErrorKind, number>> = { invalid: 400, not_found: 404, conflict: 409 };

/** The HTTP status of a backend failure: invalid 400, auth 401 (403 when the server said so), not_found 404, conflict 409, network 502. */
export function backendStatus(err: BackendError): number {
  if (err.kind === 'auth') return /\bHTTP 403\b/.test(err.message) ? 403 : 401;
  return BACKEND_STATUS[err.kind] ?? 502;
}

/** Runs `f`, turning a BackendError into its status (the kind stays in the one-line message). */
async function backendCall<T>(f: () => Promise<T> | T): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if (err instanceof BackendError) throw new HttpError(backendStatus(err), `${err.kind}: ${oneLine(err)}`);
    throw err;
  }
}

/** The settings.json key holding the publish backend configuration. */
export const PUBLISH_SETTINGS_KEY = 'publish';

function publishBlock(file: string): Record<string, unknown> {
  const b = readSavedSettings(file)[PUBLISH_SETTINGS_KEY];
  return isMapping(b) ? b : {};
}

const settingsView = (file: string) => ({ publish: withoutSecretKeys(publishBlock(file)), backends: BACKEND_NAMES, file });

/**
 * Publishing of a run's curated bundle: backend settings (the `publish` block of settings.json,
 * never a token), the pre-publish preview, the publish record, promote and publish. Publishing to a
 * remote backend needs `consent: true` unless it is a dry run.
 */
export const publishRoutes = (ctx: ServerContext) => {
  // the real environment: backends need their tokens (never returned)
  const envFor = (dir: string) => loadEnv({ env: ctx.processEnv, cwd: ctx.cwd, checkpointDir: dir });
  return new Elysia({ name: 'publish' })
    .get('/api/publish/settings', () => settingsView(ctx.settingsPath))
    .post(
      '/api/publish/settings',
      ({ body, request }) => {
        ctx.routing.check(request, routingChanges(body, publishBlock(ctx.settingsPath), PUBLISH_SETTINGS_KEY), body);
        const secret = secretKeyPath(body, 'publish');
        if (secret) throw new InputError(`'${secret}' looks like a secret; tokens and keys go to .env (POST /api/env-keys), not settings.json`);
        const next: Record<string, unknown> = { ...publishBlock(ctx.settingsPath) };
        for (const [k, v] of Object.entries(body)) {
          if (v === null) delete next[k];
          else next[k] = v;
        }
        if (next.backend !== undefined) {
          if (typeof next.backend !== 'string') throw new InputError('publish.backend must be a string', `use one of ${BACKEND_NAMES.join(', ')}`);
          try {
            getBackend(next.backend);
          } catch (err) {
            throw new InputError(oneLine(err));
          }
        }
        if (next.visibility !== undefined && (typeof next.visibility !== 'string' || !isVisibility(next.visibility)))
          throw new InputError('publish.visibility must be staged, public, unlisted, private-token or embargoed-until:YYYY-MM-DD');
        saveSettings(ctx.settingsPath, { [PUBLISH_SETTINGS_KEY]: next });
        ctx.invalidate();
        return settingsView(ctx.settingsPath);
      },
      { body: PublishSettingsBody },
    )
    .get(
      '/api/publish/:run_id/preview',
      ({ params, query }) => {
        const dir = runDirOf(ctx.checkpointsRoot, params.run_id);
        return backendCall(() => ({ run_id: params.run_id, ...publishPreview(dir, { backend: query.backend, visibility: query.visibility, env: envFor(dir) }) }));
      },
      { query: PublishPreviewQuery },
    )
    .get('/api/publish/:run_id/record', ({ params }) => {
      const dir = runDirOf(ctx.checkpointsRoot, params.run_id);
      const file = join(dir, PUBLISH_RECORD_FILE);
      const record = existsSync(file) ? readJsonObject(file, 'publish the bundle again') : null;
      if (!record) throw new NotFoundError(`run '${params.run_id}' has no publish record`, `publish it first: POST /api/publish/${params.run_id}`);
      return { run_id: params.run_id, record };
    })
    .post(
      '/api/publish/:run_id/promote',
      ({ params, body }) => {
        const dir = runDirOf(ctx.checkpointsRoot, params.run_id);
        return backendCall(async () => ({ run_id: params.run_id, record: await promoteBundle(dir, body.target, envFor(dir)) }));
      },
      { body: PublishPromoteBody },
    )
    .post(
      '/api/publish/:run_id',
      ({ params, body }) => {
        const dir = runDirOf(ctx.checkpointsRoot, params.run_id);
        const env = envFor(dir);
        return backendCall(async () => {
          // the preview decides the backend and checks the bundle and visibility before anything is built
          const p = publishPreview(dir, { backend: body.backend, visibility: body.visibility, env });
          const dryRun = body.dry_run === true || p.dry_run;
          if (p.backend !== LOCAL_BACKEND && !dryRun && body.consent !== true)
            throw new InputError(`publishing to ${p.backend} sends the bundle off this machine: it needs consent: true (or dry_run: true)`);
          const record = await publishBundle(dir, { backend: p.backend, visibility: body.visibility, dryRun, env });
          return { run_id: params.run_id, record };
        });
      },
      { body: PublishBody },
    );
};
