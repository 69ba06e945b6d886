import { atomAuthors, atomEntries } from './atom.ts';
import { type Paper, paperOf, type PaperRecord } from './papers.ts';
import { type FetchOptions, fetchText, ProviderFailure } from './provider-fetch.ts';
import { withSlash } from './scholar-a.ts';

export const SCHOLAR_B_DEFAULT_URL = 'https://export.arxiv.org';

/**
 * Papers from the arXiv export API (Atom), the second provider. The topic's words are searched in
 * all fields, any of them matching, ranked by relevance: a topic is a phrase, and requiring every
 * word of it would find nothing.
 */
export async function searchScholarB(base: string, query: string, limit: number, opts: FetchOptions): Promise<Paper[]> {
  return parseScholarBRecords(await askScholarB(base, query, limit, opts)).slice(0, limit).map(paperOf);
}

/** searchScholarB with what a citation needs: every author, the year, the journal reference, DOI and arXiv id. */
export async function searchScholarBRecords(base: string, query: string, limit: number, opts: FetchOptions): Promise<PaperRecord[]> {
  return parseScholarBRecords(await askScholarB(base, query, limit, opts)).slice(0, limit);
}

async function askScholarB(base: string, query: string, limit: number, opts: FetchOptions): Promise<string> {
  const url = new URL('api/query', withSlash(base));
  url.searchParams.set('search_query', arxivQuery(query));
  url.searchParams.set('start', '0');
  url.searchParams.set('max_results', String(limit));
  url.searchParams.set('sortBy', 'relevance');
  return await fetchText(url.href, { ...opts, headers: { accept: 'application/atom+xml' } });
}

/** `all:w1 OR all:w2 ...` over the topic's words (at most 12), quotes and operators dropped. */
export function arxivQuery(topic: string): string {
  const words = topic.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}-]*/gu) ?? [];
  const kept = [...new Set(words.filter((w) => w.length > 2 && !['and', 'or', 'andnot', 'the', 'for', 'with'].includes(w)))].slice(0, 12);
  return (kept.length ? kept : words.slice(0, 1)).map((w) => `all:${w}`).join(' OR ');
}

/**
 * Papers of an arXiv Atom feed with their authors, year (of first publication), journal reference,
 * DOI and arXiv id. The API reports a bad query as a single entry whose id is an error URL.
 */
export function parseScholarBRecords(xml: string): PaperRecord[] {
  return feedEntries(xml).flatMap(({ e, authors }) => {
    const title = e.title ?? '';
    if (!title) return [];
    const year = /^(\d{4})-/.exec(e.published ?? '')?.[1];
    return [{ title, abstract: e.summary ?? '', url: e.id ?? '', authors, year: year ? Number(year) : null, venue: e['arxiv:journal_ref'] ?? '', doi: e['arxiv:doi'] ?? '', arxiv_id: arxivId(e.id ?? '') }];
  });
}

function feedEntries(xml: string): { e: Record<string, string>; authors: string[] }[] {
  if (!/<feed\b/.test(xml)) throw new ProviderFailure('bad_answer', 'arXiv answered something that is not an Atom feed');
  const entries = atomEntries(xml);
  const error = entries.find((e) => (e.id ?? '').includes('/api/errors'));
  if (error) throw new ProviderFailure('http', `arXiv refused the query: ${error.summary ?? error.title ?? 'no reason given'}`);
  const authors = atomAuthors(xml);
  return entries.map((e, i) => ({ e, authors: authors[i] ?? [] }));
}

/** `http://arxiv.org/abs/2401.00001v2` → `2401.00001`; old-style ids (`hep-th/9901001`) too. */
export function arxivId(idUrl: string): string {
  const m = /arxiv\.org\/abs\/(.+?)(?:v\d+)?$/.exec(idUrl.trim());
  return m?.[1] ?? '';
}
