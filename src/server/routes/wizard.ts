import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Elysia } from 'elysia';
import { refuseHardLink, refuseSecret } from '../../core/checkpoint/files-path.ts';
import { experimentDetail } from '../../core/config/experiment-detail.ts';
import { InputError } from '../../core/errors.ts';
import { resolveInside } from '../../core/paths.ts';
import { findSsh, probeSsh, sshTarget } from '../../core/ssh/probe.ts';
import { homeDir } from '../../core/workspace.ts';
import type { ServerContext } from '../context.ts';
import { ExperimentQuery, SshTestBody } from '../../schema/dashboard-api.ts';

/** Wizard and configuration generation: the parsed experiment description and the SSH login probe. */
export const wizardRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'wizard' })
    .get('/api/experiment-detail', ({ query }) => experimentDetail(experimentFile(ctx, query)), {
      query: ExperimentQuery,
    })
    .post(
      '/api/ssh/test',
      ({ body }) => {
        const target = sshTarget(body, { cwd: ctx.cwd, home: homeDir(ctx.env) });
        const ssh = findSsh(ctx.env.PATH);
        return probeSsh(target, { ssh, env: ctx.env, knownHostsFile: join(ctx.workspaceRoot, '.svc', 'known_hosts') });
      },
      {
        body: SshTestBody,
      },
    );

/**
 * The experiment file a request means: `path` (a checkpoint directory or a Markdown file, inside
 * the checkpoints root), else checkpoint `id`, else the active checkpoint.
 */
function experimentFile(ctx: ServerContext, query: { id?: string; path?: string }): string {
  if (query.id !== undefined && query.path !== undefined) throw new InputError('give either id or path, not both');
  if (query.path !== undefined) {
    const target = resolveInside(ctx.checkpointsRoot, query.path, 'path');
    if (statSync(target, { throwIfNoEntry: false })?.isDirectory()) return experimentIn(target);
    // this reads experiment descriptions, not any file in the checkpoints
    if (!/\.(md|markdown)$/i.test(target)) throw new InputError(`path '${query.path}' is not a Markdown file`, 'give a checkpoint directory or a .md file');
    return servable(target, query.path);
  }
  return experimentIn(query.id !== undefined ? ctx.checkpointDir(query.id) : ctx.requireActive());
}

/** A checkpoint's experiment.md; a symlink leading out of the checkpoint is refused. */
function experimentIn(dir: string): string {
  return servable(resolveInside(dir, 'experiment.md', 'experiment file'), 'experiment.md');
}

/** The file, unless it is served by no route: a hard link (its other name may be a key) or a secret. */
function servable(abs: string, rel: string): string {
  const st = statSync(abs, { throwIfNoEntry: false });
  // a missing file is for experimentDetail to name
  if (st) refuseHardLink(st, rel);
  refuseSecret(abs, rel);
  return abs;
}
