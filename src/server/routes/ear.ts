import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Elysia, t } from 'elysia';
import { stringify } from 'yaml';
import { InputError } from '../../core/errors.ts';
import { CURATE_STATUS_FILE, curateBundle } from '../../ear/curate.ts';
import { publishYamlView, savePublishYaml } from '../../ear/publish-config.ts';
import { earStatus } from '../../ear/status.ts';
import { runDirOf } from '../../run/run-ids.ts';
import type { ServerContext } from '../context.ts';
import { HttpError, optionalJsonObject } from '../../http/response.ts';

/** Artifact bundles of a run: metadata, the publish configuration (preview and save), curation. */
export const earRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'ear' })
    .get('/api/ear/:run_id', ({ params }) => {
      const dir = runDirOf(ctx.checkpointsRoot, params.run_id);
      const statusFile = join(dir, CURATE_STATUS_FILE);
      let curate_status: unknown = null;
      if (existsSync(statusFile)) {
        try {
          curate_status = JSON.parse(readFileSync(statusFile, 'utf8'));
        } catch {}
      }
      return { run_id: params.run_id, ...earStatus(dir), curate_status };
    })
    .get('/api/ear/:run_id/publish-yaml', ({ params }) => ({ run_id: params.run_id, ...publishYamlView(runDirOf(ctx.checkpointsRoot, params.run_id)) }))
    .post(
      '/api/ear/:run_id/publish-yaml',
      ({ params, body }) => {
        const dir = runDirOf(ctx.checkpointsRoot, params.run_id);
        if ((body.yaml === undefined) === (body.config === undefined)) throw new InputError('give either yaml (the file text) or config (its keys)');
        const text = body.yaml ?? stringify(body.config);
        const config = savePublishYaml(dir, text);
        return { run_id: params.run_id, saved: true, config };
      },
      { body: t.Object({ yaml: t.Optional(t.String({ maxLength: 1_000_000 })), config: t.Optional(t.Record(t.String(), t.Unknown())) }) },
    )
    .post(
      '/api/ear/:run_id/curate',
      async ({ params, request }) => {
        const dir = runDirOf(ctx.checkpointsRoot, params.run_id);
        const body = optionalJsonObject(await request.text());
        if (body.show_files !== undefined && typeof body.show_files !== 'boolean') throw new HttpError(400, 'body.show_files: Expected boolean');
        const unknown = Object.keys(body).filter((k) => k !== 'show_files');
        if (unknown.length > 0) throw new HttpError(400, `body: unknown field '${unknown[0]}' (fields: show_files)`);
        return { run_id: params.run_id, ...(await curateBundle(dir, { showFiles: body.show_files === true })) };
      },
      // the body is optional, and a declared-optional body would let a malformed one pass as none
      { parse: 'none' },
    );
