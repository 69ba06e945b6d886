import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Elysia, t } from 'elysia';
import { experimentDetail } from '../../core/config/experiment-detail.ts';
import { InputError } from '../../core/errors.ts';
import { resolveInside } from '../../core/paths.ts';
import { findSsh, probeSsh, sshTarget } from '../../core/ssh/probe.ts';
import { homeDir } from '../../core/workspace.ts';
import type { ServerContext } from '../context.ts';

/** Wizard and configuration generation: the parsed experiment description and the SSH login probe. */
export const wizardRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'wizard' })
    .get('/api/experiment-detail', ({ query }) => experimentDetail(experimentFile(ctx, query)), {
      query: t.Object({ id: t.Optional(t.String()), path: t.Optional(t.String()) }),
    })
    .post(
      '/api/ssh/test',
      ({ body }) => {
        const target = sshTarget(body, { cwd: ctx.cwd, home: homeDir(ctx.env) });
        const ssh = findSsh(ctx.env.PATH);
        return probeSsh(target, { ssh, env: ctx.env, knownHostsFile: join(ctx.workspaceRoot, '.svc', 'known_hosts') });
      },
      {
        body: t.Object({
          host: t.String(),
          port: t.Optional(t.Integer()),
          user: t.Optional(t.String()),
          key: t.Optional(t.String()),
        }),
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
    return statSync(target, { throwIfNoEntry: false })?.isDirectory() ? join(target, 'experiment.md') : target;
  }
  const dir = query.id !== undefined ? ctx.checkpointDir(query.id) : ctx.requireActive();
  return join(dir, 'experiment.md');
}
