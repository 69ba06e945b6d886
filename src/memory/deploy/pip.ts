import { join } from 'node:path';
import type { Env } from '../../core/config/env-vars.ts';
import { UnavailableError } from '../../core/errors.ts';
import { isFileAt } from '../../core/paths.ts';
import { localDir } from './local-state.ts';
import type { LaunchPlan, PlanContext } from './launch-plan.ts';

/** `letta server` of a pip-installed Letta (SQLite), bound to the loopback address. */
export function pipPlan(ctx: PlanContext, letta: string): LaunchPlan {
  return { path: 'pip', dirs: [], setup: [], serve: [letta, 'server', '--host', ctx.host, '--port', String(ctx.port)], teardown: [], startTimeoutMs: 180_000 };
}

/** The letta of the venv start-local looks in first; `letta` on PATH otherwise. */
export function findLetta(workspace: string, env: Env): string {
  const venv = join(localDir(workspace), 'letta-venv');
  const inVenv = join(venv, 'bin', 'letta');
  if (isFileAt(inVenv)) return inVenv;
  const onPath = Bun.which('letta', { PATH: env.PATH ?? '' });
  if (onPath !== null) return onPath;
  throw new UnavailableError(`letta is not installed (not in ${venv}, not on PATH)`, `python3 -m venv ${venv} && ${venv}/bin/pip install letta, or use --path auto for the embedded server`);
}
