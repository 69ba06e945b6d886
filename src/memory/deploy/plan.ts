import type { Env } from '../../core/config/env-vars.ts';
import { dockerPlan, findDocker } from './docker.ts';
import { embeddedPlan } from './embedded.ts';
import type { LocalPath } from './local-state.ts';
import { findLetta, pipPlan } from './pip.ts';
import { findSingularity, singularityPlan } from './singularity.ts';

/** `host`: the loopback address the server must answer on (localTarget). */
export type PlanContext = { workspace: string; port: number; host: string; env: Env };

/**
 * How one deployment path starts a server: commands run to completion first (`docker run -d`,
 * `instance start`), then the long-running process svc starts in the background and records
 * (null when the runtime keeps the server itself), and the commands that undo the setup.
 */
export type LaunchPlan = {
  path: LocalPath;
  /** directories the commands need */
  dirs: string[];
  setup: string[][];
  serve: string[] | null;
  teardown: string[][];
  /** how long the server may take to answer its health check once started */
  startTimeoutMs: number;
};

/**
 * The plan for a path, after checking its runtime is there: a missing binary or a docker daemon
 * that does not answer fails here, in one line that names the fix.
 */
export async function planFor(path: LocalPath, ctx: PlanContext): Promise<LaunchPlan> {
  switch (path) {
    case 'auto':
      return embeddedPlan(ctx);
    case 'docker':
      return dockerPlan(ctx, await findDocker(ctx.env));
    case 'singularity':
      return singularityPlan(ctx, findSingularity(ctx.env));
    case 'pip':
      return pipPlan(ctx, findLetta(ctx.workspace, ctx.env));
  }
}
