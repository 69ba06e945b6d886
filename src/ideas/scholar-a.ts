import { type Paper, paperOf, type PaperRecord } from './papers.ts';
import { type FetchOptions, fetchText, ProviderFailure } from './provider-fetch.ts';

export const SCHOLAR_A_DEFAULT_URL = 'https://api.semanticscholar.org';

type ScholarAOptions = FetchOptions & { apiKey?: string | null };

/**
 * Papers from the Semantic Scholar Graph API's relevance search. The key, when there is one, goes
 * in the `x-api-key` header; without it the shared public rate limit applies.
 */
export async function searchScholarA(base: string, query: string, limit: number, opts: ScholarAOptions): Promise<Paper[]> {
  return parseScholarARecords(await askScholarA(base, query, limit, 'title,abstract,url', opts)).slice(0, limit).map(paperOf);
}

/** searchScholarA with what a citation needs: authors, year, venue, DOI and arXiv id. */
export async function searchScholarARecords(base: string, query: string, limit: number, opts: ScholarAOptions): Promise<PaperRecord[]> {
  return parseScholarARecords(await askScholarA(base, query, limit, 'title,abstract,url,year,venue,authors,externalIds', opts)).slice(0, limit);
}

async function askScholarA(base: string, query: string, limit: number, fields: string, opts: ScholarAOptions): Promise<string> {
  const url = new URL('/graph/v1/paper/search', withSlash(base));
  url.searchParams.set('query', query);
  url.searchParams.set('limit', String(limit));
  url.searchParams.set('fields', fields);
  const headers = { accept: 'application/json', ...(opts.apiKey ? { 'x-api-key': opts.apiKey } : {}) };
  return await fetchText(url.href, { ...opts, headers });
}

/**
 * `{total, offset, data: [{paperId, title, abstract, url}]}` (abstract is often null), with
 * `authors: [{name}]`, `year`, `venue` and `externalIds: {DOI, ArXiv}` when they were asked for.
 */
export function parseScholarARecords(body: string): PaperRecord[] {
  return scholarAData(body).flatMap((d) => {
    const title = text(d.title);
    if (!title) return [];
    const ids = (d.externalIds && typeof d.externalIds === 'object' ? d.externalIds : {}) as Record<string, unknown>;
    const authors = Array.isArray(d.authors) ? d.authors.map((a) => text((a as { name?: unknown } | null)?.name)).filter((n) => n !== '') : [];
    const year = typeof d.year === 'number' && Number.isInteger(d.year) ? d.year : null;
    return [{ title, abstract: text(d.abstract), url: paperUrl(d), authors, year, venue: text(d.venue), doi: text(ids.DOI), arxiv_id: text(ids.ArXiv) }];
  });
}

function scholarAData(body: string): Record<string, unknown>[] {
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
  return data.filter((d): d is Record<string, unknown> => d !== null && typeof d === 'object');
}

function paperUrl(d: Record<string, unknown>): string {
  return typeof d.url === 'string' ? d.url : typeof d.paperId === 'string' ? `https://www.semanticscholar.org/paper/${d.paperId}` : '';
}

function text(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

/** A base URL with a trailing slash, so a path prefix in it is kept. */
export function withSlash(base: string): string {
  return base.endsWith('/') ? base : `${base}/`;
}
