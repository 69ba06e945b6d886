import { Elysia } from 'elysia';
import type { ServerContext } from '../context.ts';

/** uploads, few-shot corpus, rubrics: not built yet. */
export const uploadRoutes = (_ctx: ServerContext) => new Elysia({ name: 'uploads' });
