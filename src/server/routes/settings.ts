import { Elysia } from 'elysia';
import type { ServerContext } from '../context.ts';

/** settings, profiles, env-keys: not built yet. */
export const settingsRoutes = (_ctx: ServerContext) => new Elysia({ name: 'settings' });
