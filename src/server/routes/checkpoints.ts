import { basename, dirname, resolve } from 'node:path';
import { Elysia } from 'elysia';
import { listCheckpointIndex } from '../../core/checkpoint/index.ts';
import { readMemoryAccess } from '../../core/checkpoint/memory-files.ts';
import { executeDelete, planDelete } from '../../core/checkpoint/remove.ts';
import { checkpointReport } from '../../core/checkpoint/report.ts';
import { InputError, NotFoundError } from '../../core/errors.ts';
import { resolveInside } from '../../core/paths.ts';
import { checkpointMemory } from '../../memory/backup-view.ts';
import { checkpointAgentName, checkpointMemoryEnv } from '../../memory/checkpoint-agent.ts';
import { deleteAgentNamed } from '../../memory/deploy/agents.ts';
import type { ServerContext } from '../context.ts';
import { memoryClient, memoryEnv } from './memory.ts';
import { CheckpointTarget, MemoryAccessQuery, MemoryQuery, SummaryQuery } from '../../schema/dashboard-api.ts';

/** Checkpoint browsing: list, summary, memory files, the active selection, delete. */
export const checkpointRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'checkpoints' })
    .get('/api/checkpoints', () => listCheckpointIndex(ctx.checkpointsRoot))
    .get(
      '/api/checkpoint/:id/summary',
      ({ params, query }) => checkpointReport(ctx.checkpointDir(params.id), { withNodes: query.nodes !== undefined && query.nodes !== '0' && query.nodes !== 'false', outline: query.nodes === 'outline' }),
      { query: SummaryQuery },
    )
    .get(
      '/api/checkpoint/:id/memory',
      ({ params, query }) => {
        const dir = ctx.checkpointDir(params.id);
        const client = memoryClient(ctx, dir);
        return checkpointMemory(client, client.baseUrl, dir, query.node_id);
      },
      { query: MemoryQuery },
    )
    .get(
      '/api/checkpoint/:id/memory_access',
      ({ params, query }) => {
        const access = readMemoryAccess(ctx.checkpointDir(params.id), { limit: limitOf(query.limit), nodeId: query.node_id });
        // the telemetry the memory skill writes is the only record of reads and writes
        return { ...access, source: access.sources.length > 0 ? 'access_log' : null };
      },
      { query: MemoryAccessQuery },
    )
    .get('/api/active-checkpoint', () => activeOf(ctx))
    .post(
      '/api/switch-checkpoint',
      ({ body }) => {
        ctx.setActive(targetDir(ctx, body));
        return activeOf(ctx);
      },
      { body: CheckpointTarget },
    )
    .post(
      '/api/delete-checkpoint',
      async ({ body }) => {
        const plan = planDelete(targetDir(ctx, body), ctx.checkpointsRoot);
        const wasActive = ctx.active === plan.checkpoint;
        // named from the real path and the workflow, so taken while the directory is still there
        const env = memoryEnv(ctx, plan.checkpoint);
        const agent = checkpointAgentName(plan.checkpoint, env);
        const server = checkpointMemoryEnv(plan.checkpoint, env);
        executeDelete(plan);
        if (wasActive) ctx.setActive(null);
        // a memory backend that is down does not stop the delete: the answer carries the warning
        const memory = await deleteAgentNamed(server, agent);
        return { ok: true, deleted: basename(plan.checkpoint), removed: [plan.checkpoint, ...(plan.experiments ? [plan.experiments] : [])], memory };
      },
      { body: CheckpointTarget },
    );

/** Newest events kept by memory_access unless ?limit= says otherwise. */
const DEFAULT_ACCESS_LIMIT = 1000;
const MAX_ACCESS_LIMIT = 100_000;

function limitOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_ACCESS_LIMIT;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > MAX_ACCESS_LIMIT) throw new InputError(`limit must be a whole number from 1 to ${MAX_ACCESS_LIMIT}, got '${raw}'`);
  return n;
}

function activeOf(ctx: ServerContext): { id: string | null; path: string | null } {
  const dir = ctx.active;
  return { id: dir && basename(dir), path: dir };
}

/**
 * The directory of the checkpoint a body names. A path must lie inside the checkpoints
 * directory (else 400) and be a checkpoint directly in it (else 404), like an id.
 */
function targetDir(ctx: ServerContext, body: { id?: string; path?: string }): string {
  if ((body.id === undefined) === (body.path === undefined)) throw new InputError('name the checkpoint by id or by path, one of the two');
  if (body.id !== undefined) return ctx.checkpointDir(body.id);
  const root = resolve(ctx.checkpointsRoot);
  const dir = resolveInside(root, body.path ?? '', 'checkpoint path');
  if (dirname(dir) !== root) throw new NotFoundError('not found');
  return ctx.checkpointDir(basename(dir));
}
