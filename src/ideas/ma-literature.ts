import { mergePapers, type Paper, paperOf } from './papers.ts';
import type { RetrievalSettings } from './retrieval-settings.ts';
import { type BackendName, MAX_PAPERS_LIMIT, searchPaperRecords } from './survey.ts';

/** The candidates, the queries asked (in order), and what the providers said when some failed. */
export type GatheredLiterature = { papers: Paper[]; queries: string[]; note?: string };

/**
 * Up to `nPapers` candidate papers for the literature snapshot, through the survey's providers
 * (library and scholarly backends, their failures reported, never thrown). A provider answers at
 * most 100 papers a query, so a corpus larger than that is gathered by snowballing: the topic
 * first, then the titles of the papers it found, one query each, as many as n_papers needs at 100
 * a query. All queries share the retrieval timeout; a provider that failed is not asked again.
 * The caller's papers come first.
 */
export async function gatherLiterature(topic: string, given: readonly Paper[], nPapers: number, retrieval: RetrievalSettings, signal?: AbortSignal): Promise<GatheredLiterature> {
  const perQuery = Math.min(nPapers, MAX_PAPERS_LIMIT);
  const maxQueries = Math.ceil(nPapers / MAX_PAPERS_LIMIT);
  const deadline = Date.now() + retrieval.timeoutS * 1000;
  const queries = [topic.trim()];
  const failed: (BackendName | 'library')[] = [];
  const notes: string[] = [];
  const asked: string[] = [];
  let papers = mergePapers([given], Number.POSITIVE_INFINITY);
  for (let q = 0; q < queries.length && q < maxQueries && papers.length < nPapers; q++) {
    asked.push(queries[q] as string);
    const found = await searchPaperRecords('generate_ideas', queries[q] as string, perQuery, retrieval, { signal, deadline, skip: failed });
    for (const s of found.sources) if (s.error !== undefined) failed.push(s.backend);
    if (found.note) notes.push(found.note);
    papers = mergePapers([papers, found.papers.map(paperOf)], Number.POSITIVE_INFINITY);
    if (q === 0) queries.push(...found.papers.map((p) => p.title));
    if (found.sources.length === 0) break;
  }
  return { papers, queries: asked, ...(notes.length ? { note: notes.join('; ') } : {}) };
}
