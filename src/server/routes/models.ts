import { Elysia } from 'elysia';
import { effective } from '../../core/config/config.ts';
import { UnavailableError } from '../../core/errors.ts';
import { refineGoal } from '../../llm/assist/chat-goal.ts';
import { generateConfig } from '../../llm/assist/generate-config.ts';
import { proxyGet } from '../../llm/local-daemon.ts';
import { localModelResources, modelCatalogue } from '../../llm/model-catalogue.ts';
import { daemonUrl } from '../../llm/route.ts';
import type { ServerContext } from '../context.ts';
import { errorResponse } from '../../http/response.ts';
import { ChatGoalBody, GenerateConfigBody, ModelQuery } from '../../schema/dashboard-api.ts';

/** Models: what can be used here, the local daemon, and the wizard's model-assisted helpers. */
export const modelRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'models' })
    .get('/api/models', () => modelCatalogue(ctx.config(), ctx.env))
    .get('/api/localllm-resources', ({ query }) => localModelResources(ctx.config(), ctx.env, query.model), {
      query: ModelQuery,
    })
    .get('/api/localllm/*', async ({ params, request }) => {
      const url = daemonUrl(String(effective(ctx.config(), 'localllm_host').value));
      try {
        return await proxyGet(url, params['*'], new URL(request.url).search);
      } catch (err) {
        if (err instanceof UnavailableError) return errorResponse(502, err.message);
        throw err;
      }
    })
    .post('/api/chat-goal', ({ body, request }) => refineGoal(ctx.modelClient(), body.goal ?? '', body.messages ?? [], request.signal), {
      body: ChatGoalBody,
    })
    .post('/api/config/generate', ({ body, request }) => generateConfig(ctx.modelClient(), body.answers, ctx.env, request.signal), {
      body: GenerateConfigBody,
    });
