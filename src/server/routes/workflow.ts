import { Elysia } from 'elysia';
import type { ServerContext } from '../context.ts';

/** workflow definition: not built yet. */
export const workflowRoutes = (_ctx: ServerContext) => new Elysia({ name: 'workflow' });
