import { Elysia } from 'elysia';
import { InvalidRecordError, readNodeReport } from '../../core/checkpoint/node-report.ts';
import { oneLine } from '../../core/errors.ts';
import type { ServerContext } from '../context.ts';
import { HttpError } from '../http.ts';

/** Node reports: the per-node report a run writes into each node's work directory. */
export const nodeRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'nodes' }).get('/api/nodes/:run_id/:node_id/report', ({ params }) => {
    try {
      return readNodeReport(ctx.workspaceRoot, params.run_id, params.node_id);
    } catch (err) {
      // the file is there but unusable: the request was fine, the report is not
      if (err instanceof InvalidRecordError) throw new HttpError(422, oneLine(err));
      throw err;
    }
  });
