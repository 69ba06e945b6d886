import { Elysia } from 'elysia';
import type { ServerContext } from '../context.ts';

/** Routes Bun serves directly (the bundled UI); not built yet. */
export const STATIC_ROUTES = {};

/** static assets, memory inspector, source viewer: not built yet. */
export const staticRoutes = (_ctx: ServerContext) => new Elysia({ name: 'static' });
