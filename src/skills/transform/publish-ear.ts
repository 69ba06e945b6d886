import { Type as T } from '@sinclair/typebox';
import { NotFoundError, SvcError } from '../../core/errors.ts';
import { realOrSelf } from '../../core/paths.ts';
import { checkpointsRoot } from '../../core/workspace.ts';
import { BACKEND_NAMES, BackendError, backendErrorObject, type BackendErrorKind } from '../../ear/backends/index.ts';
import { promoteBundle, publishBundle, type PublishRecord } from '../../ear/publish.ts';
import { defineTool, toolParams, type ToolContext } from '../../mcp/tool.ts';
import { checkpointArg } from './curate-ear.ts';

/**
 * The checkpoint a publish tool works on: `given` (else SVC_CHECKPOINT_DIR), a checkpoint inside
 * the checkpoints root (the parent of SVC_CHECKPOINT_DIR, else the workspace's), links resolved.
 */
function publishCheckpointDir(given: string | undefined, env: ToolContext['env']): string {
  return checkpointArg(given, env, realOrSelf(checkpointsRoot(env)));
}

export type PublishToolResult =
  | { ref: string; visibility: string; promoted_at: string | null; promote_failed_at: string | null; backend: string; bundle_sha256: string; dry_run: boolean }
  | { error: string; kind: BackendErrorKind };

const resultOf = ({ ref, visibility, promoted_at, promote_failed_at, backend, bundle_sha256, dry_run }: PublishRecord): PublishToolResult => ({ ref, visibility, promoted_at, promote_failed_at, backend, bundle_sha256, dry_run });

/** A failure as the result object, so its kind survives the MCP layer; anything unexpected still throws. */
function failure(err: unknown): PublishToolResult {
  if (err instanceof BackendError) return backendErrorObject(err);
  if (err instanceof NotFoundError) return { error: backendErrorObject(err).error, kind: 'not_found' };
  if (err instanceof SvcError) return { error: backendErrorObject(err).error, kind: err.exitCode === 2 ? 'invalid' : 'network' };
  throw err;
}

const checkpointParam = T.Optional(T.String({ description: 'the run checkpoint, inside the checkpoints root (default: SVC_CHECKPOINT_DIR)' }));

export const publishEar = defineTool({
  name: 'publish_ear',
  description:
    "Publish the run's curated artifact bundle (ear_published/, see curate_ear) through a backend; the first publish is always staged. " +
    'Returns {ref, visibility, promoted_at, promote_failed_at, backend, bundle_sha256, dry_run}, or {error, kind} (kind: auth, network, conflict, not_found, invalid). ' +
    'SVC_PUBLISH_DRYRUN forces a dry run.',
  params: toolParams({
    checkpoint_dir: checkpointParam,
    backend: T.Optional(T.Union(BACKEND_NAMES.map((b) => T.Literal(b)), { default: 'svc-registry', description: 'the publish backend' })),
    visibility: T.Optional(T.String({ default: 'staged', maxLength: 100, description: 'visibility asked for: staged, unlisted, public, private-token, embargoed-until:YYYY-MM-DD' })),
    dry_run: T.Optional(T.Boolean({ default: false, description: 'send nothing; report what would be published' })),
  }),
  timeoutS: 3600,
  async run(args, ctx) {
    try {
      const dir = publishCheckpointDir(args.checkpoint_dir, ctx.env);
      return resultOf(await publishBundle(dir, { backend: args.backend ?? 'svc-registry', visibility: args.visibility ?? 'staged', dryRun: args.dry_run === true, env: ctx.env }));
    } catch (err) {
      return failure(err);
    }
  },
});

export const promoteEar = defineTool({
  name: 'promote_ear',
  description:
    "Promote the run's published bundle: staged to unlisted or public, unlisted to public (demotion is refused with kind conflict). " +
    'Returns {ref, visibility, promoted_at, promote_failed_at, backend, bundle_sha256, dry_run}, or {error, kind}.',
  params: toolParams({
    checkpoint_dir: checkpointParam,
    target: T.Optional(T.Union([T.Literal('public'), T.Literal('unlisted')], { default: 'public', description: 'public or unlisted' })),
  }),
  timeoutS: 600,
  async run(args, ctx) {
    try {
      const dir = publishCheckpointDir(args.checkpoint_dir, ctx.env);
      return resultOf(await promoteBundle(dir, args.target ?? 'public', ctx.env));
    } catch (err) {
      return failure(err);
    }
  },
});
