import { Type as T } from '@sinclair/typebox';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { fetchCodeBundle } from '../../reproduce/fetch-bundle.ts';
import { checkpointDirArg } from '../checkpoint-path.ts';

const text = (description: string) => T.Optional(T.String({ description }));

export const fetchCodeBundleTool = defineTool({
  name: 'fetch_code_bundle',
  description:
    "Put the paper's published code bundle into dest, the directory the reproduction is built in, through svc clone's verification: every file against manifest.lock and the bundle digest against sha256, so a tampered bundle is refused and dest is left as it was. " +
    'ref and sha256 default to the checkpoint\'s publish_record.json. When dest already holds a reproduce.sh, or is already the verified bundle, nothing is fetched ({skipped: true, reason}) unless overwrite; nor when there is no ref (nothing published). ' +
    'SVC_REPRO_CLONE_POLICY: passthrough (default), warn (fetches and records a warning), deny (refuses to fetch). Deterministic, no model. ' +
    'Writes ors_seed.json into the checkpoint and returns it: {ref, sha256, dest, files (count), verified, skipped, reason?, warnings?}.',
  params: toolParams({
    ref: text('the bundle reference (svc://<id>, file://<tarball>, https://..., hosting-release:<owner>/<repo>, doi:10.5281/zenodo.<n>); default the publish record\'s'),
    sha256: text('the bundle digest the fetched bundle must have, 64 hex digits; default the publish record\'s'),
    dest: T.String({ description: 'where the bundle goes: inside the checkpoint, absolute or relative to it (the pipeline uses <checkpoint>/repro_sandbox)' }),
    checkpoint_dir: text('the run checkpoint (default SVC_CHECKPOINT_DIR)'),
    overwrite: T.Boolean({ default: false, description: 'fetch again even when dest holds a reproduce.sh or the bundle already (default false)' }),
  }),
  timeoutS: 3600,
  run: (args, ctx) => {
    const checkpointDir = checkpointDirArg(args.checkpoint_dir, ctx.env);
    return fetchCodeBundle({ checkpointDir, dest: args.dest, ref: args.ref, sha256: args.sha256, overwrite: args.overwrite, env: ctx.env });
  },
});
