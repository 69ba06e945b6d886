import { Elysia } from 'elysia';
import type { ServerContext } from '../context.ts';
import { HttpError } from '../../http/response.ts';
import { ConfirmationBody } from '../../schema/dashboard-api.ts';

/**
 * Changes of where requests go that pages of other origins asked for (routing-guard.ts): listed,
 * and approved or rejected, by the dashboard itself or a client on this machine, never by a page
 * of another origin.
 */
export const confirmationRoutes = (ctx: ServerContext) => {
  const ownOnly = (request: Request) => {
    if (ctx.routing.isForeign(request)) throw new HttpError(403, 'only the dashboard itself may list or answer held changes');
  };
  return new Elysia({ name: 'confirmations' })
    .get('/api/confirmations', ({ request }) => {
      ownOnly(request);
      return { pending: ctx.routing.list() };
    })
    .post(
      '/api/confirmations/:id',
      ({ params, body, request }) => {
        ownOnly(request);
        return ctx.routing.answer(params.id, body.approve);
      },
      { body: ConfirmationBody },
    );
};
