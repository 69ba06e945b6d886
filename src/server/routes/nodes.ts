import { Elysia } from 'elysia';
import type { ServerContext } from '../context.ts';

/** node reports: not built yet. */
export const nodeRoutes = (_ctx: ServerContext) => new Elysia({ name: 'nodes' });
