import { Elysia } from 'elysia';
import { isMapping } from '../../core/values.ts';
import { launchRun } from '../../run/launch.ts';
import { planStage, postSearchMessage, resumeRun } from '../../run/run-stage.ts';
import type { RunHost } from '../../run/start-run.ts';
import type { ServerContext } from '../context.ts';
import { HttpError } from '../http.ts';

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
      // 501, not 409: the request is valid and no state of the server would let it succeed;
      // this version has no post-search pipeline at all
      if (plan.kind === 'post_search') throw new HttpError(501, postSearchMessage(plan.stage));
      return ctx.runs.startAlone(() => resumeRun({ ...runHost(ctx), checkpoint: dir }));
    })
    .post('/api/stop', () => ctx.runs.stop(ctx.active));
