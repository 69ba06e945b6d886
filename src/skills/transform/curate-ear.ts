import { resolve } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { isCheckpointDir } from '../../core/checkpoint/locate.ts';
import { InputError, NotFoundError } from '../../core/errors.ts';
import { isWithin, realOrSelf, statOrNull } from '../../core/paths.ts';
import { printable } from '../../core/text.ts';
import { curateBundle } from '../../ear/curate.ts';
import { defineTool, toolParams, type ToolContext } from '../../mcp/tool.ts';

export const curateEar = defineTool({
  name: 'curate_ear',
  description:
    "Curate the run's artifact bundle: the files of <checkpoint_dir>/ear/ that ear/publish.yaml allows (include, then exclude; .env, secrets/, keys always left out) " +
    'are copied to ear_published/ with manifest.lock. Returns {ear_published_dir, manifest_path, bundle_sha256, file_count, excluded_count, skipped: false}, ' +
    'or {skipped: true, reason} when the run has no publish configuration.',
  params: toolParams({ checkpoint_dir: T.Optional(T.String({ description: 'the run checkpoint (default: SVC_CHECKPOINT_DIR)' })) }),
  timeoutS: 1800,
  async run(args, ctx) {
    return curateBundle(checkpointArg(args.checkpoint_dir, ctx.env));
  },
});

/**
 * The checkpoint a bundle tool works on: `given`, else SVC_CHECKPOINT_DIR; it must be a checkpoint
 * directory. With `root` (a publish tool's checkpoints root), it must lie inside it, links resolved.
 */
export function checkpointArg(given: string | undefined, env: ToolContext['env'], root?: string): string {
  const name = given || env.SVC_CHECKPOINT_DIR;
  if (!name) throw new InputError('no checkpoint_dir given and SVC_CHECKPOINT_DIR is not set');
  const dir = root === undefined ? resolve(name) : realOrSelf(resolve(name));
  if (root !== undefined && (!isWithin(root, dir) || dir === root)) throw new InputError(`checkpoint_dir '${printable(name)}' is outside the checkpoints root ${root}`, 'give a run checkpoint inside it');
  if (!statOrNull(dir)?.isDirectory()) throw new NotFoundError(`checkpoint_dir '${printable(name)}' is not a directory`);
  if (!isCheckpointDir(dir)) throw new InputError(`checkpoint_dir '${printable(name)}' is not a checkpoint`, 'a checkpoint holds tree.json, idea.json or launch_config.json');
  return dir;
}
