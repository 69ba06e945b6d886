import { type FetchOptions, fetchText, ProviderFailure } from '../ideas/provider-fetch.ts';
import { withSlash } from '../ideas/scholar-a.ts';
import { htmlFragmentText } from './html-text.ts';

export const BRAVE_DEFAULT_URL = 'https://api.search.brave.com';
/** The API's own limits: at most 20 results a request, a query of at most 400 characters and 50 words. */
export const BRAVE_MAX_COUNT = 20;
export const BRAVE_MAX_QUERY_CHARS = 400;
export const BRAVE_MAX_QUERY_WORDS = 50;

export type WebResult = { title: string; url: string; description: string };

/**
 * Web results from the Brave Search API (`GET /res/v1/web/search?q=&count=`, the key in
 * `X-Subscription-Token`). Failures are ProviderFailures, as for the scholarly providers: a 429
 * is retried after its Retry-After while the deadline allows.
 */
export async function braveSearch(base: string, key: string, query: string, count: number, opts: FetchOptions): Promise<WebResult[]> {
  const url = new URL('res/v1/web/search', withSlash(base));
  url.searchParams.set('q', query);
  url.searchParams.set('count', String(count));
  const body = await fetchText(url.href, { ...opts, headers: { accept: 'application/json', 'x-subscription-token': key } });
  return parseBrave(body).slice(0, count);
}

/** `{type: "search", web: {results: [{title, url, description}]}}`; no `web` at all when nothing matched. Snippets carry <strong> tags. */
export function parseBrave(body: string): WebResult[] {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new ProviderFailure('bad_answer', 'Brave Search answered something that is not JSON');
  }
  if (value === null || typeof value !== 'object') throw new ProviderFailure('bad_answer', 'Brave Search answered JSON that is not an object');
  const web = (value as { web?: { results?: unknown } }).web;
  if (web === undefined) return [];
  if (!Array.isArray(web?.results)) throw new ProviderFailure('bad_answer', 'Brave Search answered without a web.results list');
  return web.results.flatMap((r: Record<string, unknown> | null) => {
    const url = typeof r?.url === 'string' ? r.url : '';
    if (!url) return [];
    return [{ title: htmlFragmentText(typeof r?.title === 'string' ? r.title : ''), url, description: htmlFragmentText(typeof r?.description === 'string' ? r.description : '') }];
  });
}
