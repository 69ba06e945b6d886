import { Elysia } from 'elysia';
import type { ServerContext } from './context.ts';
import { checkBodyDepth, errorResponse, messageOf, statusOf, validationMessage } from '../http/response.ts';
import { ROUTES } from './routes/index.ts';

/**
 * The dashboard API: one plugin per spec section, each a thin layer over domain functions.
 * Every failure becomes `{error}` with a non-2xx status; nothing a client sends reaches the
 * client as a stack trace or a dropped connection.
 */
export function createApp(ctx: ServerContext) {
  let app = new Elysia()
    // before validation: a validation error describing a body thousands of levels deep would exhaust the stack
    .onTransform(({ body }) => checkBodyDepth(body))
    .onError(({ code, error, request }) => {
      switch (code) {
        case 'PARSE':
          return errorResponse(400, 'malformed request body: expected valid JSON (or the declared content type)');
        case 'VALIDATION':
          return errorResponse(400, validationMessage(error, (error as { type?: string }).type));
        case 'NOT_FOUND':
          return errorResponse(404, `no such endpoint: ${request.method} ${new URL(request.url).pathname}`);
        default: {
          const status = statusOf(error);
          if (status >= 500 && !(status === 503)) console.error(`svc viz: ${request.method} ${new URL(request.url).pathname}: ${(error as Error)?.stack ?? error}`);
          return errorResponse(status, messageOf(error));
        }
      }
    });
  for (const routes of ROUTES) app = app.use(routes(ctx)) as unknown as typeof app;
  ctx.routing.replay = async (req) => app.handle(req);
  return app;
}

export type DashboardApp = ReturnType<typeof createApp>;
