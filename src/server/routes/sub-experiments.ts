import { Elysia } from 'elysia';
import { readLineageDecisions } from '../../run/lineage-decisions.ts';
import { runDirOf } from '../../run/run-ids.ts';
import { getSubExperiment, listSubExperiments } from '../../run/run-records.ts';
import { launchSubExperiment } from '../../run/sub-experiment.ts';
import { parseSubExperimentRequest } from '../../run/sub-experiment-request.ts';
import type { ServerContext } from '../context.ts';
import { runHost } from './runs.ts';

/** Sub-experiments and lineage: child runs of a checkpoint, and the decisions that started them. */
export const subExperimentRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'sub-experiments' })
    .get('/api/sub-experiments', () => listSubExperiments(ctx.checkpointsRoot))
    .get('/api/sub-experiments/:run_id', ({ params }) => getSubExperiment(ctx.checkpointsRoot, params.run_id))
    .post('/api/sub-experiments/launch', async ({ body }) => {
      const { parent_run_id, ...request } = parseSubExperimentRequest(body);
      const parentCheckpoint = parent_run_id === undefined ? ctx.requireActive() : runDirOf(ctx.checkpointsRoot, parent_run_id);
      return launchSubExperiment({ ...runHost(ctx), ...request, parentCheckpoint });
    })
    .get('/api/lineage-decisions/:run_id', ({ params }) => readLineageDecisions(runDirOf(ctx.checkpointsRoot, params.run_id)));
