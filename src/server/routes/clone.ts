import { tmpdir } from 'node:os';
import { Elysia } from 'elysia';
import { loadEnv } from '../../core/config/environment.ts';
import { InvalidRecordError, oneLine } from '../../core/errors.ts';
import type { ServerContext } from '../context.ts';
import { CloneVerifyBody } from '../../schema/dashboard-api.ts';

/**
 * EAR clone-verify: fetch a bundle and run the clone's verification steps in a fresh private
 * temporary directory (mkdtemp, mode 0700: no fixed path another local user could prepare) that is
 * removed afterwards. A bundle that fails verification is an answer ({ok: false, error});
 * a bad reference is 400, an unknown one 404, an unreachable source 503.
 */
export const cloneRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'clone' }).post(
    '/api/ear/clone-verify',
    async ({ body }) => {
      const env = loadEnv({ env: ctx.processEnv, cwd: ctx.cwd, checkpointDir: ctx.active ?? undefined });
      // the archive reader and the bundle sources load with the first clone, not with the dashboard
      const { verifyBundle } = await import('../../clone/clone.ts');
      try {
        const r = await verifyBundle(body.ref, { env, cwd: ctx.cwd, checkpointDir: ctx.active ?? undefined, expectSha256: body.expect_sha256, tmpRoot: tmpdir(), warn: () => {} });
        return { ok: true, ref: r.ref, bundle_sha256: r.bundle_sha256, file_count: r.file_count };
      } catch (err) {
        if (err instanceof InvalidRecordError) return { ok: false, ref: body.ref, bundle_sha256: null, file_count: null, error: oneLine(err) };
        throw err;
      }
    },
    { body: CloneVerifyBody },
  );
