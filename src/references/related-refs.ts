import { join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../core/atomic.ts';
import { statOrNull } from '../core/paths.ts';
import { bibFile, citeKeys } from './bibtex.ts';
import type { Collected, FoundPaper } from './collect.ts';

/** The files the related-work search leaves in the checkpoint, where the paper stages read them. */
export const RELATED_REFS_FILE = 'related_refs.json';
export const REFS_BIB_FILE = 'refs.bib';

export type RelatedPaper = FoundPaper & { cite_key: string };

export type RelatedRefs = {
  papers: RelatedPaper[];
  count: number;
  min_papers: number;
  /** min_papers reached */
  complete: boolean;
  backend: string;
  rounds: Collected['rounds'];
  stopped: Collected['stopped'];
  /** refs.bib beside it, every paper an entry under its cite_key; null when it could not be written */
  bib_file: string | null;
  offline?: true;
  /** what was lacking, in one line */
  note?: string;
};

/**
 * related_refs.json and refs.bib in `dir` (the checkpoint), each written whole: refs.bib first,
 * so a related_refs.json that names it finds it complete. Without a directory to write to, the
 * result says so and names no bib file.
 */
export function relatedRefs(collected: Collected, opts: { minPapers: number; backend: string; dir: string | null }): RelatedRefs {
  const keys = citeKeys(collected.papers);
  const papers = collected.papers.map((p, i) => ({ cite_key: keys[i] as string, ...p }));
  const bib = bibFile(papers, keys);
  const notes = [...collected.notes];
  if (bib.plain.length > 0) notes.push(`the library entries ${bib.plain.join(', ')} hold TeX a bibliography should not (an unknown command, unbalanced braces, a bare & # or %), so refs.bib gives them as plain text`);
  if (bib.dropped > 0) notes.push(`${bib.dropped} character${bib.dropped === 1 ? '' : 's'} that LaTeX cannot set (such as CJK script or emoji) were left out of refs.bib`);
  let bibPath: string | null = null;
  if (opts.dir === null) notes.push('SVC_CHECKPOINT_DIR is not set, so related_refs.json and refs.bib were not written');
  else if (!statOrNull(opts.dir)?.isDirectory()) notes.push(`${opts.dir} (SVC_CHECKPOINT_DIR) is not a directory, so related_refs.json and refs.bib were not written`);
  else bibPath = join(opts.dir, REFS_BIB_FILE);
  const out: RelatedRefs = {
    papers,
    count: papers.length,
    min_papers: opts.minPapers,
    complete: papers.length >= opts.minPapers,
    backend: opts.backend,
    rounds: collected.rounds,
    stopped: collected.stopped,
    bib_file: bibPath,
    ...(collected.offline ? { offline: true as const } : {}),
    ...(notes.length ? { note: notes.join('; ') } : {}),
  };
  if (bibPath && opts.dir) {
    writeFileAtomic(bibPath, bib.text);
    writeJsonAtomic(join(opts.dir, RELATED_REFS_FILE), out);
  }
  return out;
}
