import { Elysia } from 'elysia';
import type { ServerContext } from '../context.ts';

/** checkpoint files (files, file, file/raw, filetree, filecontent, save, delete, compile): not built yet. */
export const checkpointFileRoutes = (_ctx: ServerContext) => new Elysia({ name: 'checkpoint-files' });
