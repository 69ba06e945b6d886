import { join } from 'node:path';
import type { Env } from '../../core/config/env-vars.ts';
import { InputError, UnavailableError } from '../../core/errors.ts';
import { deploymentName, LETTA_IMAGE, LETTA_PORT } from './docker.ts';
import { localDir } from './local-state.ts';
import type { LaunchPlan, PlanContext } from './launch-plan.ts';

/**
 * Letta from its docker image as a singularity/apptainer instance (HPC, no daemon): the instance
 * is started, then its runscript runs in it as svc's background process. `instance start` alone
 * runs only a startscript, which an image converted from docker does not have. The instance shares
 * the host's network, so Letta answers on its own port; Postgres keeps its data under the workspace.
 */
export function singularityPlan(ctx: PlanContext, runtime: string): LaunchPlan {
  if (ctx.port !== LETTA_PORT) {
    throw new InputError(`Letta in singularity listens on port ${LETTA_PORT}, but MEMBACKEND_BASE_URL names port ${ctx.port}`, `set MEMBACKEND_BASE_URL=http://localhost:${LETTA_PORT}`);
  }
  const name = deploymentName(ctx.workspace);
  const pgdata = join(localDir(ctx.workspace), 'letta-pgdata');
  return {
    path: 'singularity',
    dirs: [pgdata],
    setup: [[runtime, 'instance', 'start', '--writable-tmpfs', '--bind', `${pgdata}:/var/lib/postgresql/data`, `docker://${LETTA_IMAGE}`, name]],
    serve: [runtime, 'run', `instance://${name}`],
    teardown: [[runtime, 'instance', 'stop', name]],
    startTimeoutMs: 300_000,
  };
}

/** apptainer, else singularity: both speak this command line. */
export function findSingularity(env: Env): string {
  const path = { PATH: env.PATH ?? '' };
  const runtime = Bun.which('apptainer', path) ?? Bun.which('singularity', path);
  if (runtime === null) throw new UnavailableError('neither apptainer nor singularity is installed (none on PATH)', 'install Apptainer (apptainer.org) or SingularityCE, or use --path auto for the embedded server');
  return runtime;
}
