import { createHash } from 'node:crypto';
import type { Env } from '../../core/config/env-vars.ts';
import { UnavailableError } from '../../core/errors.ts';
import { realOrSelf } from '../../core/paths.ts';
import type { LaunchPlan, PlanContext } from './launch-plan.ts';
import { lastLine, runCommand } from '../../core/run-command.ts';

export const LETTA_IMAGE = 'letta/letta:latest';
/** The port the Letta image serves on inside its container. */
export const LETTA_PORT = 8283;

/** Container and instance name of a workspace's Letta: one per workspace, recognisable as ours. */
export function deploymentName(workspace: string): string {
  return `svc-memory-${createHash('sha1').update(realOrSelf(workspace)).digest('hex').slice(0, 8)}`;
}

/**
 * Letta in a detached container, published on the loopback address only, its Postgres data in a
 * named volume so a restart keeps the memory. `--rm`: stopping it removes the container, not the volume.
 */
export function dockerPlan(ctx: PlanContext, docker: string): LaunchPlan {
  const name = deploymentName(ctx.workspace);
  const run = [docker, 'run', '-d', '--rm', '--name', name, '--label', `svc.workspace=${realOrSelf(ctx.workspace)}`];
  run.push('-p', `${ctx.host.includes(':') ? `[${ctx.host}]` : ctx.host}:${ctx.port}:${LETTA_PORT}`, '-v', `${name}-pgdata:/var/lib/postgresql/data`, LETTA_IMAGE);
  return { path: 'docker', dirs: [], setup: [run], serve: null, teardown: [[docker, 'stop', name]], startTimeoutMs: 300_000 };
}

/** The docker binary, once its daemon has answered. */
export async function findDocker(env: Env): Promise<string> {
  const docker = Bun.which('docker', { PATH: env.PATH ?? '' });
  if (docker === null) throw new UnavailableError('docker is not installed (no docker on PATH)', 'install Docker, or use --path auto for the embedded server');
  const info = await runCommand([docker, 'info', '--format', '{{.ServerVersion}}'], env, 15_000);
  if (info.code !== 0 || info.timedOut) {
    const why = info.timedOut ? 'no answer within 15 s' : (lastLine(info.stderr) ?? `exit ${info.code}`);
    throw new UnavailableError(`the docker daemon is not reachable: ${why}`, 'start it (sudo systemctl start docker, or dockerd &), or use --path auto');
  }
  return docker;
}
