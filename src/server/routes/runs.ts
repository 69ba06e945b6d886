import { Elysia } from 'elysia';
import { isMapping } from '../../core/values.ts';
import { launchRun } from '../../run/launch.ts';
import { planStage, resumeRun, runPostSearchStage } from '../../run/run-stage.ts';
import type { RunHost } from '../../run/start-run.ts';
import type { ServerContext } from '../context.ts';

/** Where the dashboard starts runs: its checkpoints directory, its own environment (keys included) and its supervisor. */
export function runHost(ctx: ServerContext): RunHost {
  return { checkpointsRoot: ctx.checkpointsRoot, env: ctx.processEnv, cwd: ctx.cwd, supervisor: ctx.runs };
}

/** Run lifecycle: launch, run one stage, stop. Only runs this dashboard started are ever signalled. */
export const runRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'runs' })
    .post('/api/launch', async ({ body }) => {
      const started = await ctx.runs.startAlone(() => launchRun({ ...runHost(ctx), body }));
      // the dashboard follows the run it started
      ctx.setActive(started.checkpoint_path);
      return started;
    })
    .post('/api/run-stage', async ({ body }) => {
      const dir = ctx.requireActive();
      const plan = planStage(isMapping(body) ? body.stage : undefined, ctx.config().workflow.workflow);
      if (plan.kind === 'post_search') return ctx.runs.startAlone(() => runPostSearchStage({ ...runHost(ctx), checkpoint: dir, stage: plan.stage }));
      return ctx.runs.startAlone(() => resumeRun({ ...runHost(ctx), checkpoint: dir }));
    })
    .post('/api/stop', () => ctx.runs.stop(ctx.active));
