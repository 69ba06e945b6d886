import { dockerPlan, findDocker } from './docker.ts';
import { embeddedPlan } from './embedded.ts';
import type { LocalPath } from './local-state.ts';
import type { LaunchPlan, PlanContext } from './launch-plan.ts';
import { findLetta, pipPlan } from './pip.ts';
import { findSingularity, singularityPlan } from './singularity.ts';

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
