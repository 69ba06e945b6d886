import type { Paper } from './papers.ts';
import { type FetchOptions, fetchText, ProviderFailure } from './provider-fetch.ts';

export const SCHOLAR_A_DEFAULT_URL = 'https://api.semanticscholar.org';

/**
 * Papers from the Semantic Scholar Graph API's relevance search. The key, when there is one, goes
 * in the `x-api-key` header; without it the shared public rate limit applies.
 */
export async function searchScholarA(base: string, query: string, limit: number, opts: FetchOptions & { apiKey?: string | null }): Promise<Paper[]> {
  const url = new URL('/graph/v1/paper/search', withSlash(base));
  url.searchParams.set('query', query);
  url.searchParams.set('limit', String(limit));
  url.searchParams.set('fields', 'title,abstract,url');
  const headers = { accept: 'application/json', ...(opts.apiKey ? { 'x-api-key': opts.apiKey } : {}) };
  const body = await fetchText(url.href, { ...opts, headers });
  return parseScholarA(body).slice(0, limit);
}

/** `{total, offset, data: [{paperId, title, abstract, url}]}`; abstract is often null. */
export function parseScholarA(body: string): Paper[] {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new ProviderFailure('bad_answer', 'Semantic Scholar answered something that is not JSON');
  }
  const data = (value as { data?: unknown } | null)?.data;
  // no match at all comes back without `data`
  if (data === undefined && value && typeof value === 'object' && 'total' in value) return [];
  if (!Array.isArray(data)) throw new ProviderFailure('bad_answer', 'Semantic Scholar answered JSON without a data list');
  return data.flatMap((d: Record<string, unknown>) => {
    const title = typeof d?.title === 'string' ? d.title.trim() : '';
    if (!title) return [];
    const url = typeof d.url === 'string' ? d.url : typeof d.paperId === 'string' ? `https://www.semanticscholar.org/paper/${d.paperId}` : '';
    return [{ title, abstract: typeof d.abstract === 'string' ? d.abstract.trim() : '', url }];
  });
}

/** A base URL with a trailing slash, so a path prefix in it is kept. */
export function withSlash(base: string): string {
  return base.endsWith('/') ? base : `${base}/`;
}
