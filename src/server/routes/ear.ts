import { Elysia } from 'elysia';
import { stringify } from 'yaml';
import { InputError } from '../../core/errors.ts';
import { curateBundle } from '../../ear/curate.ts';
import { publishYamlView, savePublishYaml } from '../../ear/publish-config.ts';
import { earStatus } from '../../ear/status.ts';
import { runDirOf } from '../../run/run-ids.ts';
import type { ServerContext } from '../context.ts';
import { CurateBody, PublishYamlBody } from '../../schema/dashboard-api.ts';

/** Artifact bundles of a run: metadata, the publish configuration (preview and save), curation. */
export const earRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'ear' })
    .get('/api/ear/:run_id', ({ params }) => earStatus(runDirOf(ctx.checkpointsRoot, params.run_id)))
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
      { body: PublishYamlBody },
    )
    .post(
      '/api/ear/:run_id/curate',
      async ({ params, body }) => {
        const dir = runDirOf(ctx.checkpointsRoot, params.run_id);
        return { run_id: params.run_id, ...(await curateBundle(dir, { showFiles: body.show_files === true })) };
      },
      // no body is {} (limits.ts); a malformed one is 400, never taken as none
      { body: CurateBody },
    );
