import { Elysia } from 'elysia';
import type { ServerContext } from '../context.ts';

/** checkpoint browsing (list, summary, memory, memory_access, active, switch, delete): not built yet. */
export const checkpointRoutes = (_ctx: ServerContext) => new Elysia({ name: 'checkpoints' });
