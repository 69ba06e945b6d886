import { Elysia } from 'elysia';
import { readNodeRecord } from '../../core/checkpoint/node-record.ts';
import { readNodeReport } from '../../core/checkpoint/node-report.ts';
import type { ServerContext } from '../context.ts';

/** Nodes: the per-node report a run writes into each node's work directory, and a node's whole record in the tree file. */
export const nodeRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'nodes' })
    .get('/api/nodes/:run_id/:node_id/report', ({ params }) => readNodeReport(ctx.workspaceRoot, params.run_id, params.node_id))
    .get('/api/nodes/:run_id/:node_id', ({ params }) => readNodeRecord(ctx.checkpointDir(params.run_id), params.node_id));
