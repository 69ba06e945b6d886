import { join } from 'node:path';
import { Elysia } from 'elysia';
import type { Config } from '../../core/config/config.ts';
import { profilesView, saveDashboardSettings, settingsView } from '../../core/config/dashboard-settings.ts';
import { listEnvKeys, saveEnvKeys } from '../../core/config/env-keys.ts';
import { dotenvFor } from '../../core/config/environment.ts';
import { readSavedSettings } from '../../core/config/saved-settings.ts';
import { projectRoot } from '../../core/workspace.ts';
import type { ServerContext } from '../context.ts';

/** Settings, profiles and environment-variable keys (names only; values are written, never read back). */
export const settingsRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'settings' })
    .get('/api/settings', () => settingsView(liveConfig(ctx)))
    .post('/api/settings', ({ body }) => {
      saveDashboardSettings(ctx.settingsPath, body);
      ctx.invalidate();
      return settingsView(liveConfig(ctx));
    })
    .get('/api/profiles', () => profilesView(readSavedSettings(ctx.settingsPath)))
    .get('/api/env-keys', () => listEnvKeys(process.env, dotenvFor(ctx.env, ctx.cwd, ctx.active ?? undefined)))
    .post('/api/env-keys', ({ body }) => {
      const file = join(projectRoot(ctx.env, ctx.cwd), '.env');
      const saved = saveEnvKeys(file, body);
      ctx.invalidate();
      return { ok: true, saved, file };
    });

/**
 * The configuration with the process environment as it is: ctx.env also holds the .env values
 * read at start, which would hide a variable saved through /api/env-keys since then. The .env
 * files themselves are re-read with the configuration.
 */
function liveConfig(ctx: ServerContext): Config {
  return { ...ctx.config(), env: process.env };
}
