import { oneLine } from '../core/errors.ts';
import { normalizeTitle, type PaperRecord, fillMissing } from '../ideas/papers.ts';
import type { RetrievalSettings } from '../ideas/retrieval-settings.ts';
import { type SourceReport, searchPaperRecords } from '../ideas/survey.ts';
import type { SearchState } from './model-queries.ts';
import { normalizeQuery, type PlannedQuery, plannedQueries } from './queries.ts';

export type FoundPaper = PaperRecord & { found_by: string };

export type RoundRecord = {
  round: number;
  query: string;
  origin: PlannedQuery['origin'] | 'model';
  found: number;
  new: number;
  /** backends that failed this round, and why */
  errors?: string[];
};

/** Why the rounds stopped. */
export type StopReason = 'enough' | 'max_rounds' | 'offline' | 'rate_limited' | 'failing' | 'out_of_queries' | 'time';

export type Collected = {
  papers: FoundPaper[];
  rounds: RoundRecord[];
  stopped: StopReason;
  /** one line each: what was lacking and what to do about it */
  notes: string[];
  offline: boolean;
};

export type CollectRequest = {
  summary: string;
  keywords: readonly string[];
  maxRounds: number;
  minPapers: number;
  settings: RetrievalSettings;
  /** the model's next queries; absent or throwing: derived ones are used */
  propose?: (state: SearchState) => Promise<string[]>;
  /** epoch ms after which no new round starts, and every provider must answer */
  deadline: number;
  signal?: AbortSignal;
};

type QueuedQuery = PlannedQuery | { query: string; origin: 'model' };

/** The model is asked at most this often: after that the derived queries carry on. */
const MAX_MODEL_ASKS = 3;
/** Rounds in a row in which every backend failed (not offline, not rate-limited) before giving up. */
const MAX_FAILING_ROUNDS = 3;

/**
 * Rounds of literature search until `minPapers` distinct papers are found or `maxRounds` have run:
 * first the keywords and the summary's words, then the model's proposals while it gives them,
 * then queries derived without it. Papers are the same when their DOI, arXiv id or title is.
 * A backend that is unreachable or rate-limited ends the rounds at once with a note, rather than
 * trying every round against it; the papers found so far are kept.
 */
export async function collectReferences(req: CollectRequest): Promise<Collected> {
  const { seeds, derived } = plannedQueries(req.summary, req.keywords);
  const queue: QueuedQuery[] = [...seeds];
  const tried = new Set<string>();
  const papers: FoundPaper[] = [];
  const index = new Map<string, FoundPaper>();
  const rounds: RoundRecord[] = [];
  const notes = new Set<string>();
  let modelAsks = 0;
  let modelGaveUp = !req.propose;
  let failingRounds = 0;
  const unreachable = new Set<SourceReport['backend']>();

  const next = async (): Promise<QueuedQuery | undefined> => {
    for (;;) {
      const q = queue.shift();
      if (q) {
        if (tried.has(normalizeQuery(q.query))) continue;
        return q;
      }
      if (!modelGaveUp && modelAsks < MAX_MODEL_ASKS && req.propose) {
        modelAsks++;
        try {
          const proposed = await req.propose({ tried: rounds.map((r) => r.query), titles: papers.map((p) => p.title) });
          const fresh = proposed.filter((p) => !tried.has(normalizeQuery(p)));
          if (fresh.length === 0) modelGaveUp = true;
          queue.push(...fresh.map((query) => ({ query, origin: 'model' as const })));
        } catch (err) {
          if (req.signal?.aborted) throw err;
          modelGaveUp = true;
          notes.add(`the model proposed no queries (${oneLine(err)}); derived queries from the summary and keywords instead`);
        }
        continue;
      }
      const d = derived.shift();
      if (!d) return undefined;
      queue.push(d);
    }
  };

  let stopped: StopReason = 'max_rounds';
  let offline = false;
  while (rounds.length < req.maxRounds) {
    if (papers.length >= req.minPapers) {
      stopped = 'enough';
      break;
    }
    if (Date.now() >= req.deadline) {
      stopped = 'time';
      break;
    }
    const q = await next();
    if (!q) {
      stopped = 'out_of_queries';
      break;
    }
    tried.add(normalizeQuery(q.query));
    const found = await searchPaperRecords('collect_references_iterative', q.query, perQuery(req.minPapers), req.settings, { deadline: req.deadline, skip: [...unreachable], ...(req.signal ? { signal: req.signal } : {}) });
    let added = 0;
    for (const p of found.papers) if (remember({ ...p, found_by: q.query })) added++;
    const failed = found.sources.filter((s) => s.error !== undefined);
    rounds.push({ round: rounds.length + 1, query: q.query, origin: q.origin, found: found.papers.length, new: added, ...(failed.length ? { errors: failed.map((s) => `${s.backend} (${s.provider}): ${s.error}`) } : {}) });
    if (found.note) notes.add(found.note);
    if (failed.length < found.sources.length) {
      failingRounds = 0;
      // asking again a provider that cannot be reached or keeps refusing only costs time: the others go on
      for (const s of failed) if (s.error_kind === 'offline' || s.error_kind === 'rate_limited') unreachable.add(s.backend);
      continue;
    }
    // no backend answered this round
    if (failed.every((s) => s.error_kind === 'offline')) {
      offline = true;
      stopped = 'offline';
      break;
    }
    if (failed.some((s) => s.error_kind === 'rate_limited')) {
      stopped = 'rate_limited';
      break;
    }
    if (++failingRounds >= MAX_FAILING_ROUNDS) {
      stopped = 'failing';
      break;
    }
  }
  if (stopped === 'max_rounds' && papers.length >= req.minPapers) stopped = 'enough';
  const shortfall = lacking(stopped, papers.length, req, rounds.length);
  return { papers, rounds, stopped, notes: shortfall ? [shortfall, ...notes] : [...notes], offline };

  /** Adds a paper not seen before (by DOI, arXiv id or title); a duplicate lends the fields the kept one lacks. */
  function remember(p: FoundPaper): boolean {
    const keys = paperKeys(p);
    const seen = keys.map((k) => index.get(k)).find((x) => x !== undefined);
    if (seen) {
      fillMissing(seen, p);
      for (const k of paperKeys(seen)) index.set(k, seen);
      return false;
    }
    papers.push(p);
    for (const k of keys) index.set(k, p);
    return true;
  }
}

function paperKeys(p: PaperRecord): string[] {
  const keys = [`t:${normalizeTitle(p.title)}`];
  if (p.doi) keys.push(`d:${p.doi.toLowerCase()}`);
  if (p.arxiv_id) keys.push(`a:${p.arxiv_id.toLowerCase()}`);
  return keys;
}

/** Papers asked of a backend per query: enough that a few rounds reach min_papers, within what a page gives. */
function perQuery(minPapers: number): number {
  return Math.min(20, Math.max(5, minPapers));
}

/** What the rounds lacked, in one line; null when min_papers was reached. */
function lacking(stopped: StopReason, count: number, req: CollectRequest, rounds: number): string | null {
  if (stopped === 'enough') return null;
  const got = `found ${count} of the ${req.minPapers} papers asked for in ${rounds} round${rounds === 1 ? '' : 's'}`;
  switch (stopped) {
    case 'offline':
      return `${got}: the literature search could not be reached, so the rounds stopped (the paper goes on with ${count ? 'these' : 'no'} references)`;
    case 'rate_limited':
      return `${got}: the literature search kept answering "too many requests", so the rounds stopped`;
    case 'failing':
      return `${got}: the literature search failed ${MAX_FAILING_ROUNDS} rounds in a row, so the rounds stopped`;
    case 'out_of_queries':
      return `${got}: every query there was (from the keywords, the summary${req.propose ? ' and the model' : ''}) was tried; give more or other keywords`;
    case 'time':
      return `${got}: the time for the search ran out`;
    default:
      return `${got}: max_rounds (${req.maxRounds}) was reached`;
  }
}
