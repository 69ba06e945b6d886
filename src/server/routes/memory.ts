import { Elysia } from 'elysia';
import type { Env } from '../../core/config/env-vars.ts';
import { loadEnv } from '../../core/config/environment.ts';
import { InputError } from '../../core/errors.ts';
import { isMapping } from '../../core/values.ts';
import { checkpointMemoryClient } from '../../memory/checkpoint-agent.ts';
import { MemoryClient } from '../../memory/client.ts';
import { detectDeployments } from '../../memory/deploy/detect.ts';
import { memoryHealth } from '../../memory/deploy/health.ts';
import { restartLocal, startLocal, stopLocal } from '../../memory/deploy/local.ts';
import { LOCAL_PATHS, type LocalPath } from '../../memory/deploy/local-state.ts';
import type { ServerContext } from '../context.ts';

/**
 * The environment with its real secrets (MEMBACKEND_API_KEY): ctx.env hides them, and the memory
 * client has to send the key. Read with the checkpoint's .env when one is named.
 */
export function memoryEnv(ctx: ServerContext, checkpointDir?: string): Env {
  return loadEnv({ env: ctx.processEnv, cwd: ctx.cwd, checkpointDir: checkpointDir ?? ctx.active ?? undefined });
}

/** The client for the memory of a checkpoint (its workflow may name the server), else of the workspace. */
export function memoryClient(ctx: ServerContext, checkpointDir?: string): MemoryClient {
  const env = memoryEnv(ctx, checkpointDir);
  return checkpointDir === undefined ? MemoryClient.fromEnv(env) : checkpointMemoryClient(checkpointDir, env);
}

/** Memory backend: health, which deployments run, and the workspace's local server (the same functions as svc memory). */
export const memoryRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'memory' })
    .get('/api/memory/health', () => {
      const client = memoryClient(ctx);
      return memoryHealth(client, client.baseUrl);
    })
    .get('/api/memory/detect', () => detectDeployments(ctx.workspaceRoot, memoryEnv(ctx)))
    .post('/api/memory/start-local', ({ body }) => startLocal(ctx.workspaceRoot, memoryEnv(ctx), pathOf(body) ?? 'auto'))
    .post('/api/memory/stop-local', () => stopLocal(ctx.workspaceRoot, memoryEnv(ctx)))
    .post('/api/memory/restart', ({ body }) => restartLocal(ctx.workspaceRoot, memoryEnv(ctx), pathOf(body)));

/** `{path}` of a start or restart body; no body, or no path, leaves the choice to the caller. */
function pathOf(body: unknown): LocalPath | undefined {
  if (body === undefined || body === null || body === '') return undefined;
  if (!isMapping(body)) throw new InputError('the body must be a JSON object like {"path": "auto"}');
  if (body.path === undefined) return undefined;
  const path = LOCAL_PATHS.find((p) => p === body.path);
  if (path === undefined) throw new InputError(`path must be one of ${LOCAL_PATHS.join(', ')}, got ${JSON.stringify(body.path)}`);
  return path;
}
