import { Elysia } from 'elysia';
import { effective } from '../../core/config/config.ts';
import { runState } from '../../core/checkpoint/state.ts';
import type { ServerContext } from '../context.ts';

/** State and dashboards: the run state snapshot, GPU and resource monitors, the log stream. */
export const stateRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'state' }).get('/state', () => {
    const active = ctx.active;
    const launched = ctx.launched && ctx.launched.checkpoint === active ? ctx.launched : null;
    return runState(active, () => defaultModel(ctx), launched);
  });

/** The model a run would use when its checkpoint does not record one: environment, then workflow. */
function defaultModel(ctx: ServerContext): { provider: string; model: string } {
  const cfg = ctx.config();
  return { provider: String(effective(cfg, 'backend').value ?? ''), model: String(effective(cfg, 'model').value ?? '') };
}
