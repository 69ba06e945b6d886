import { join } from 'node:path';
import { Elysia } from 'elysia';
import { profilesView, saveSettingsBody, settingsView } from '../../core/config/dashboard-settings.ts';
import { envKeyPairs, listEnvKeys, saveEnvKeys } from '../../core/config/env-keys.ts';
import { readSavedSettings } from '../../core/config/saved-settings.ts';
import type { ServerContext } from '../context.ts';
import { routingChanges } from '../routing-guard.ts';

/** Settings, profiles and environment-variable keys (names only; values are written, never read back). */
export const settingsRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'settings' })
    .get('/api/settings', () => settingsView(ctx.config()))
    .post('/api/settings', ({ body, request }) => {
      ctx.routing.check(request, routingChanges(body, settingsView(ctx.config())), body);
      saveSettingsBody(ctx.config(), ctx.settingsPath, body);
      ctx.invalidate();
      return settingsView(ctx.config());
    })
    .get('/api/profiles', () => profilesView(readSavedSettings(ctx.settingsPath)))
    .get('/api/env-keys', () => listEnvKeys(ctx.processEnv, ctx.config().dotenv))
    .post('/api/env-keys', ({ body, request }) => {
      ctx.routing.check(request, routingChanges(envKeyPairs(body), ctx.env), body);
      const file = join(ctx.config().projectRoot, '.env');
      const saved = saveEnvKeys(file, body);
      ctx.invalidate();
      return { ok: true, saved, file };
    });

