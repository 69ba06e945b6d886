import { Elysia } from 'elysia';
import { readNodeReport } from '../../core/checkpoint/node-report.ts';
import type { ServerContext } from '../context.ts';

/** Node reports: the per-node report a run writes into each node's work directory. */
export const nodeRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'nodes' }).get('/api/nodes/:run_id/:node_id/report', ({ params }) => readNodeReport(ctx.workspaceRoot, params.run_id, params.node_id));
