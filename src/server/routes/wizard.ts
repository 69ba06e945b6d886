import { Elysia } from 'elysia';
import type { ServerContext } from '../context.ts';

/** wizard (experiment-detail, ssh/test): not built yet. */
export const wizardRoutes = (_ctx: ServerContext) => new Elysia({ name: 'wizard' });
