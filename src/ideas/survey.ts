import { InputError } from '../core/errors.ts';
import { mergePapers, type Paper, type PaperRecord } from './papers.ts';
import { type FailureKind, type FetchOptions, ProviderFailure } from './provider-fetch.ts';
import { searchLibrary } from './library.ts';
import { searchScholarA, searchScholarARecords } from './scholar-a.ts';
import { searchScholarB, searchScholarBRecords } from './scholar-b.ts';
import type { RetrievalSettings } from './retrieval-settings.ts';

export type BackendName = 'scholar_a' | 'scholar_b';

/** What one provider gave: its papers, or why it gave none. The library's url is its file. */
export type SourceReport = { backend: BackendName | 'library'; provider: string; url: string; papers: number; error?: string; error_kind?: FailureKind };

export type SurveyResult<P extends Paper = Paper> = {
  papers: P[];
  sources: SourceReport[];
  /** true when no provider answered: the run continues with zero papers */
  offline?: true;
  /** what went wrong and how to fix it, in one line */
  note?: string;
};

export const MAX_PAPERS_LIMIT = 100;

const PROVIDER: Readonly<Record<BackendName | 'library', string>> = { scholar_a: 'Semantic Scholar', scholar_b: 'arXiv', library: 'your library' };

/** How one backend is asked: the provider's base URL, the query, how many, and the fetch limits. */
type Search<P extends Paper> = (backend: BackendName | 'library', url: string, query: string, max: number, opts: FetchOptions & { apiKey?: string | null }) => Promise<P[]>;

const basic: Search<Paper> = async (b, url, q, max, o) => (b === 'library' ? searchLibrary(url, q, max).map((p) => ({ title: p.title, abstract: p.abstract, url: p.url })) : b === 'scholar_a' ? await searchScholarA(url, q, max, o) : await searchScholarB(url, q, max, o));
const records: Search<PaperRecord> = async (b, url, q, max, o) => (b === 'library' ? searchLibrary(url, q, max) : b === 'scholar_a' ? await searchScholarARecords(url, q, max, o) : await searchScholarBRecords(url, q, max, o));

/**
 * Papers on `topic` from the configured backends (both: merged, each title once). A provider that
 * cannot be reached, times out, rate-limits past the timeout or answers nonsense is reported in
 * `sources` and the note, never thrown: idea generation goes on with what there is.
 */
export async function survey(topic: string, maxPapers: number, settings: RetrievalSettings, signal?: AbortSignal): Promise<SurveyResult> {
  checkQuery('survey', 'topic', topic, maxPapers, 'max_papers');
  return await searchBackends(basic, topic.trim(), maxPapers, settings, { signal });
}

export type RecordSearchOptions = {
  signal?: AbortSignal;
  /** these backends instead of the configured one(s), without the library */
  backends?: BackendName[];
  /** epoch ms by which every provider must have answered, when sooner than the settings' timeout */
  deadline?: number;
  /** providers not to ask (one that failed earlier rounds) */
  skip?: readonly (BackendName | 'library')[];
};

/**
 * survey for citing: the same providers, failures and notes, each paper with its authors, year,
 * venue, DOI and arXiv id. `what` names the caller in the errors of a bad query.
 */
export async function searchPaperRecords(what: string, query: string, max: number, settings: RetrievalSettings, opts: RecordSearchOptions = {}): Promise<SurveyResult<PaperRecord>> {
  checkQuery(what, 'query', query, max, 'max_results');
  return await searchBackends(records, query.trim(), max, settings, opts);
}

function checkQuery(what: string, name: string, query: string, max: number, maxName: string): void {
  if (query.trim() === '') throw new InputError(`${what}: ${name} is empty`, `give the ${name === 'topic' ? 'research topic' : 'words'} to search for`);
  if (!Number.isInteger(max) || max < 1 || max > MAX_PAPERS_LIMIT) {
    throw new InputError(`${what}: ${maxName} must be an integer from 1 to ${MAX_PAPERS_LIMIT}, got ${max}`, 'ask for fewer papers');
  }
}

/** The library's papers come first: a paper it shares with a provider is cited as the researcher has it. */
async function searchBackends<P extends Paper>(search: Search<P>, query: string, max: number, settings: RetrievalSettings, opts: RecordSearchOptions): Promise<SurveyResult<P>> {
  const configured: BackendName[] = settings.backend === 'both' ? ['scholar_a', 'scholar_b'] : [settings.backend];
  const backends = (opts.backends ?? [...(settings.library ? (['library'] as const) : []), ...configured]).filter((b) => !opts.skip?.includes(b));
  const deadline = Math.min(Date.now() + settings.timeoutS * 1000, opts.deadline ?? Number.POSITIVE_INFINITY);
  const outcomes = await Promise.all(backends.map((b) => ask(search, b, query, max, settings, deadline, opts.signal)));
  const papers = mergePapers(
    outcomes.map((o) => o.papers),
    max,
  );
  const sources = outcomes.map((o) => o.report);
  const failed = sources.filter((s) => s.error !== undefined);
  if (failed.length === 0) return { papers, sources };
  const why = failed.map((s) => `${s.backend} (${s.provider}): ${s.error}`).join('; ');
  const offline = failed.length === sources.length;
  const note = offline ? `no papers: ${why}; continuing without literature (${fixFor(failed)})` : `${why}; continuing with the papers of ${sources.filter((s) => s.error === undefined).map((s) => s.provider).join(' and ')} (${fixFor(failed)})`;
  return offline ? { papers, sources, offline: true, note } : { papers, sources, note };
}

async function ask<P extends Paper>(search: Search<P>, backend: BackendName | 'library', query: string, max: number, s: RetrievalSettings, deadline: number, signal?: AbortSignal): Promise<{ papers: P[]; report: SourceReport }> {
  const url = backend === 'library' ? (s.library ?? '') : backend === 'scholar_a' ? s.scholarAUrl : s.scholarBUrl;
  const report: SourceReport = { backend, provider: PROVIDER[backend], url, papers: 0 };
  try {
    const papers = await search(backend, url, query, max, { deadline, signal, ...(backend === 'scholar_a' ? { apiKey: s.scholarAKey } : {}) });
    report.papers = papers.length;
    return { papers, report };
  } catch (err) {
    if (!(err instanceof ProviderFailure)) throw err;
    report.error = err.message;
    report.error_kind = err.kind;
    return { papers: [], report };
  }
}

/** The fix the note names, by what failed. */
function fixFor(failed: SourceReport[]): string {
  const fixes = new Set<string>();
  for (const s of failed) {
    const keyed = s.backend === 'scholar_a';
    if (s.backend === 'library') fixes.add('fix the file retrieval.library names');
    else if (s.error_kind === 'rate_limited') fixes.add(keyed ? 'set SVC_SCHOLAR_A_API_KEY for a higher Semantic Scholar rate limit, or raise SVC_RETRIEVAL_TIMEOUT_S' : 'raise SVC_RETRIEVAL_TIMEOUT_S or try again later');
    else if (keyed && /answered 40[13]\b/.test(s.error ?? '')) fixes.add('check SVC_SCHOLAR_A_API_KEY, or unset it to use the public rate limit');
    else fixes.add(`check the network or ${keyed ? 'SVC_SCHOLAR_A_URL' : 'SVC_SCHOLAR_B_URL or retrieval.endpoint'}, or choose another backend with SVC_RETRIEVAL_BACKEND`);
  }
  return [...fixes].join('; ');
}
