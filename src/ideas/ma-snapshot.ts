import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic.ts';
import { UnavailableError } from '../core/errors.ts';
import { log } from '../core/log.ts';
import { readTextOrNull } from '../core/paths.ts';
import type { Embedder } from '../llm/embeddings.ts';
import type { CallMeta } from '../llm/types.ts';
import { gatherLiterature } from './ma-literature.ts';
import type { Paper } from './papers.ts';
import type { RetrievalSettings } from './retrieval-settings.ts';
import { nearest } from './vectors.ts';

/** The cached snapshot in the checkpoint: a header line, then one paper with its vector per line. */
export const SNAPSHOT_FILE = join('idea_snapshot', 'papers.jsonl');

export type SnapshotPaper = Paper & { vector: number[] };

/** `queries`: what the providers were asked, the topic first (absent from a snapshot placed by hand). */
export type SnapshotHeader = { topic: string; embed_model: string; n_papers: number; papers: number; taken_at: string; queries?: string[] };

/** The engine's corpus: papers ranked by similarity to the topic, each with its vector. */
export type Snapshot = SnapshotHeader & {
  corpus: SnapshotPaper[];
  /** `cached` when read from the checkpoint, else `live` */
  source: 'cached' | 'live';
  /** what the providers said when some failed */
  note?: string;
};

export type SnapshotRequest = {
  topic: string;
  /** papers the caller passed (the survey's), part of every live snapshot */
  papers: readonly Paper[];
  nPapers: number;
  live: boolean;
  embedder: Embedder;
  retrieval: RetrievalSettings;
  checkpointDir: string | null;
  meta: CallMeta;
  signal?: AbortSignal;
};

/**
 * The literature snapshot, reused from the checkpoint when it fits (same embedding model, at least
 * one paper; live: also the same topic and size), else taken live: the caller's papers and what the
 * survey's providers find (gatherLiterature), embedded and ranked by cosine similarity to the
 * topic, the top n_papers kept and cached. A live snapshot with zero papers is an UnavailableError: the engine has nothing to
 * build authors from.
 */
export async function literatureSnapshot(req: SnapshotRequest): Promise<Snapshot> {
  const model = req.embedder.choice.model;
  const cached = req.checkpointDir ? readSnapshot(join(req.checkpointDir, SNAPSHOT_FILE)) : null;
  if (cached && cached.corpus.length > 0 && cached.embed_model === model && (!req.live || (cached.topic === req.topic.trim() && cached.n_papers === req.nPapers))) return cached;
  if (!req.live) log.info(`generate_ideas: SVC_IDEA_MA_LIVE is off but the checkpoint holds no usable literature snapshot for ${model}; taking a live one`);
  return await liveSnapshot(req);
}

async function liveSnapshot(req: SnapshotRequest): Promise<Snapshot> {
  const found = await gatherLiterature(req.topic, req.papers, req.nPapers, req.retrieval, req.signal);
  // a provider that failed shrinks the corpus: say so where the operator looks
  if (found.note) log.warn(`generate_ideas: literature snapshot: ${found.note}`);
  const pool = found.papers;
  if (pool.length === 0) throw new UnavailableError(`the live literature snapshot holds zero papers${found.note ? ` (${found.note})` : ''}`);
  const [topicVector, ...vectors] = await req.embedder.embed([req.topic.trim(), ...pool.map(paperText)], { meta: req.meta, signal: req.signal });
  const corpus = nearest(topicVector as number[], vectors, req.nPapers).map(({ index }) => {
    const p = pool[index] as Paper;
    return { title: p.title, abstract: p.abstract, url: p.url, vector: vectors[index] as number[] };
  });
  const header: SnapshotHeader = { topic: req.topic.trim(), embed_model: req.embedder.choice.model, n_papers: req.nPapers, papers: corpus.length, taken_at: new Date().toISOString(), queries: found.queries };
  if (req.checkpointDir) writeFileAtomic(join(req.checkpointDir, SNAPSHOT_FILE), [JSON.stringify({ snapshot: header }), ...corpus.map((p) => JSON.stringify(p))].join('\n') + '\n');
  return { ...header, corpus, source: 'live', ...(found.note ? { note: found.note } : {}) };
}

/** What a paper is embedded as: its title and abstract, as document embedding models expect. */
export function paperText(p: Paper): string {
  return p.abstract.trim() ? `${p.title.trim()}. ${p.abstract.trim()}` : p.title.trim();
}

/** The cached snapshot, or null when there is none or it is not whole (a damaged file is retaken, not trusted). */
function readSnapshot(file: string): Snapshot | null {
  const text = readTextOrNull(file);
  if (text === null) return null;
  try {
    const [first, ...rest] = text.split('\n').filter((l) => l.trim() !== '');
    const header = (JSON.parse(first ?? '') as { snapshot?: SnapshotHeader }).snapshot;
    const corpus = rest.map((l) => JSON.parse(l) as SnapshotPaper);
    const whole = header && typeof header.embed_model === 'string' && typeof header.topic === 'string' && header.papers === corpus.length;
    if (whole && corpus.every((p) => typeof p.title === 'string' && Array.isArray(p.vector) && p.vector.length > 0)) return { ...header, corpus, source: 'cached' };
  } catch {
    // reported below
  }
  log.warn(`generate_ideas: ${file} is not a whole literature snapshot; taking a new one`);
  return null;
}
