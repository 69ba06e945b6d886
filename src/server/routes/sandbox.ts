import { join } from 'node:path';
import { Elysia } from 'elysia';
import { findRunLog } from '../../core/checkpoint/run-log.ts';
import { ConflictError, UnavailableError } from '../../core/errors.ts';
import { chooseRuntime } from '../../sandbox/container.ts';
import { containerInfo, containerSettings } from '../../sandbox/container-info.ts';
import { startPull } from '../../sandbox/container-pull.ts';
import { detectSchedulers, slurmPartitions } from '../../sandbox/detect.ts';
import { listImages } from '../../sandbox/image-cache.ts';
import type { ServerContext } from '../context.ts';
import { log } from '../../core/log.ts';

/** Schedulers and container runtimes of the machine the dashboard runs on. */
export const sandboxRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'sandbox' })
    .get('/api/scheduler/detect', () => detectSchedulers(ctx.env))
    .get('/api/slurm/partitions', async () => ({ partitions: await slurmPartitions(ctx.env) }))
    .get('/api/container/info', () => containerInfo(ctx.config()))
    .get('/api/container/images', () => listImages(ctx.workspaceRoot, ctx.env))
    .post('/api/container/pull', async () => {
      const { image, mode } = containerSettings(ctx.config());
      if (image === null) throw new ConflictError('no container image is configured', 'set SVC_CONTAINER_IMAGE or container.image');
      // mode none runs no container, yet fetching the image ahead is still asked for: use what is here
      const chosen = await chooseRuntime(mode === 'none' ? 'auto' : mode, ctx.env);
      if (chosen === null) throw new UnavailableError('no container runtime here: neither docker (with its daemon), podman, apptainer nor singularity');
      const { done, ...started } = startPull(chosen, image, ctx.workspaceRoot, pullLog(ctx), ctx.env);
      done.catch((err: unknown) => log.warn(`container pull of ${image}: ${(err as Error).message}`));
      return started;
    });

/** The active checkpoint's run log, else a pull log beside it, else one in the workspace. */
function pullLog(ctx: ServerContext): string {
  const active = ctx.active;
  if (active === null) return join(ctx.workspaceRoot, 'container_pull.log');
  return findRunLog(active) ?? join(active, 'container_pull.log');
}
