import { Type as T } from '@sinclair/typebox';
import { envValue } from '../../core/config/env-vars.ts';
import { InputError, SvcError } from '../../core/errors.ts';
import { log } from '../../core/log.ts';
import { ProviderFailure } from '../../ideas/provider-fetch.ts';
import { defineTool } from '../../mcp/tool.ts';
import { BRAVE_DEFAULT_URL, BRAVE_MAX_COUNT, BRAVE_MAX_QUERY_CHARS, BRAVE_MAX_QUERY_WORDS, braveSearch } from '../../web/brave-search.ts';

const SEARCH_TIMEOUT_S = 30;

export const webSearchTool = defineTool({
  name: 'web_search',
  description:
    `Search the web with the Brave Search API (the key in BRAVE_API_KEY; SVC_WEB_SEARCH_URL points elsewhere). Returns {query, provider, results: [{title, url, description}], offline?, note?}; read a result with fetch_url. ` +
    `Without BRAVE_API_KEY, or with a key Brave refuses, it is an error saying so: results are never made up. A provider that cannot be reached or keeps answering 429 gives no results and a note.`,
  params: T.Object(
    {
      query: T.String({ description: `what to search for, at most ${BRAVE_MAX_QUERY_CHARS} characters and ${BRAVE_MAX_QUERY_WORDS} words` }),
      n: T.Integer({ default: 5, description: `results at most, 1 to ${BRAVE_MAX_COUNT}` }),
    },
    { additionalProperties: false },
  ),
  timeoutS: SEARCH_TIMEOUT_S + 30,
  async run(args, ctx) {
    const query = args.query.trim();
    if (query === '') throw new InputError('web_search: query is empty', 'give the words to search for');
    if (query.length > BRAVE_MAX_QUERY_CHARS || query.split(/\s+/).length > BRAVE_MAX_QUERY_WORDS) throw new InputError(`web_search: the query is over ${BRAVE_MAX_QUERY_CHARS} characters or ${BRAVE_MAX_QUERY_WORDS} words, the search provider's limit`, 'search with fewer words');
    if (!Number.isInteger(args.n) || args.n < 1 || args.n > BRAVE_MAX_COUNT) throw new InputError(`web_search: n must be an integer from 1 to ${BRAVE_MAX_COUNT}, got ${args.n}`);
    const key = envValue(ctx.env, 'BRAVE_API_KEY');
    if (!key) throw new SvcError('web_search: no web search provider is configured: BRAVE_API_KEY is not set', 'set BRAVE_API_KEY to a Brave Search API key (https://api-dashboard.search.brave.com), in the environment or .env');
    const base = envValue(ctx.env, 'SVC_WEB_SEARCH_URL') ?? BRAVE_DEFAULT_URL;
    try {
      const results = await braveSearch(base, key, query, args.n, { deadline: Date.now() + SEARCH_TIMEOUT_S * 1000, signal: ctx.signal });
      return { query, provider: 'brave', results };
    } catch (err) {
      if (!(err instanceof ProviderFailure)) throw err;
      if (err.kind === 'http' && /answered 40[13]\b/.test(err.message)) throw new SvcError(`web_search: Brave Search refused BRAVE_API_KEY (${err.message})`, 'check BRAVE_API_KEY: a key of the Brave Search API, with a plan that includes web search');
      const note = `no results: ${err.message}; ${err.kind === 'rate_limited' ? 'the plan\'s rate limit is reached, try again later' : 'check the network or SVC_WEB_SEARCH_URL'}`;
      log.warn(`web_search: ${note}`);
      return { query, provider: 'brave', results: [], ...(err.kind === 'offline' ? { offline: true } : {}), note };
    }
  },
});
