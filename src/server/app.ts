import { httpApp } from '../http/app.ts';
import type { ServerContext } from './context.ts';
import { BODIES } from './limits.ts';
import { ROUTES } from './routes/index.ts';

/**
 * The dashboard API: one plugin per spec section, each a thin layer over domain functions.
 * Every failure becomes `{error}` with a non-2xx status (httpApp); nothing a client sends reaches
 * the client as a stack trace or a dropped connection.
 */
export function createApp(ctx: ServerContext) {
  let app = httpApp({ name: 'svc viz', bodies: BODIES });
  for (const routes of ROUTES) app = app.use(routes(ctx)) as unknown as typeof app;
  ctx.routing.replay = async (req) => app.handle(req);
  return app;
}
