import { InputError } from '../core/errors.ts';
import { mergePapers, type Paper } from './papers.ts';
import { type FailureKind, ProviderFailure } from './provider-fetch.ts';
import { searchScholarA } from './scholar-a.ts';
import { searchScholarB } from './scholar-b.ts';
import type { RetrievalSettings } from './retrieval-settings.ts';

export type BackendName = 'scholar_a' | 'scholar_b';

/** What one provider gave: its papers, or why it gave none. */
export type SourceReport = { backend: BackendName; provider: string; url: string; papers: number; error?: string; error_kind?: FailureKind };

export type SurveyResult = {
  papers: Paper[];
  sources: SourceReport[];
  /** true when no provider answered: the run continues with zero papers */
  offline?: true;
  /** what went wrong and how to fix it, in one line */
  note?: string;
};

export const MAX_PAPERS_LIMIT = 100;

const PROVIDER: Readonly<Record<BackendName, string>> = { scholar_a: 'Semantic Scholar', scholar_b: 'arXiv' };

/**
 * Papers on `topic` from the configured backends (both: merged, each title once). A provider that
 * cannot be reached, times out, rate-limits past the timeout or answers nonsense is reported in
 * `sources` and the note, never thrown: idea generation goes on with what there is.
 */
export async function survey(topic: string, maxPapers: number, settings: RetrievalSettings, signal?: AbortSignal): Promise<SurveyResult> {
  if (topic.trim() === '') throw new InputError('survey: topic is empty', 'give the research topic to search for');
  if (!Number.isInteger(maxPapers) || maxPapers < 1 || maxPapers > MAX_PAPERS_LIMIT) {
    throw new InputError(`survey: max_papers must be an integer from 1 to ${MAX_PAPERS_LIMIT}, got ${maxPapers}`, 'ask for fewer papers');
  }
  const backends: BackendName[] = settings.backend === 'both' ? ['scholar_a', 'scholar_b'] : [settings.backend];
  const deadline = Date.now() + settings.timeoutS * 1000;
  const outcomes = await Promise.all(backends.map((b) => ask(b, topic.trim(), maxPapers, settings, deadline, signal)));
  const papers = mergePapers(outcomes.map((o) => o.papers), maxPapers);
  const sources = outcomes.map((o) => o.report);
  const failed = sources.filter((s) => s.error !== undefined);
  if (failed.length === 0) return { papers, sources };
  const why = failed.map((s) => `${s.backend} (${s.provider}): ${s.error}`).join('; ');
  const offline = failed.length === sources.length;
  const note = offline ? `no papers: ${why}; continuing without literature (${fixFor(failed)})` : `${why}; continuing with the other backend's papers (${fixFor(failed)})`;
  return offline ? { papers, sources, offline: true, note } : { papers, sources, note };
}

async function ask(backend: BackendName, topic: string, max: number, s: RetrievalSettings, deadline: number, signal?: AbortSignal): Promise<{ papers: Paper[]; report: SourceReport }> {
  const url = backend === 'scholar_a' ? s.scholarAUrl : s.scholarBUrl;
  const report: SourceReport = { backend, provider: PROVIDER[backend], url, papers: 0 };
  try {
    const papers =
      backend === 'scholar_a'
        ? await searchScholarA(url, topic, max, { deadline, signal, apiKey: s.scholarAKey })
        : await searchScholarB(url, topic, max, { deadline, signal });
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
    if (s.error_kind === 'rate_limited') fixes.add(keyed ? 'set SVC_SCHOLAR_A_API_KEY for a higher Semantic Scholar rate limit, or raise SVC_RETRIEVAL_TIMEOUT_S' : 'raise SVC_RETRIEVAL_TIMEOUT_S or try again later');
    else if (keyed && /answered 40[13]\b/.test(s.error ?? '')) fixes.add('check SVC_SCHOLAR_A_API_KEY, or unset it to use the public rate limit');
    else fixes.add(`check the network or ${keyed ? 'SVC_SCHOLAR_A_URL' : 'SVC_SCHOLAR_B_URL or retrieval.endpoint'}, or choose another backend with SVC_RETRIEVAL_BACKEND`);
  }
  return [...fixes].join('; ');
}
