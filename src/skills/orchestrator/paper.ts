import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NotFoundError, TooLargeError } from '../../core/errors.ts';
import { type PaperFacts, paperFacts } from '../../core/checkpoint/paper.ts';
import { isWithin, realOrSelf, statOrNull } from '../../core/paths.ts';

/** Where a run's paper lands, LaTeX source first (the reader wants text), then the compiled PDF. */
const CANDIDATES = [
  { file: 'full_paper.tex', format: 'latex' },
  { file: join('paper', 'full_paper.tex'), format: 'latex' },
  { file: 'full_paper.pdf', format: 'pdf' },
] as const;

/** A LaTeX source larger than this is no paper a client wants inline. */
const MAX_TEXT = 5 * 1024 * 1024;

/** The file found, plus what a checkpoint summary says of the paper (tex_path, pdf_path, title, pages). */
export type Paper = ({ run_id: string; file: string; format: 'latex'; content: string } | { run_id: string; file: string; format: 'pdf'; size_bytes: number }) & PaperFacts;

/** The paper of the run in `dir`; none yet is a NotFoundError saying why. */
export function findPaper(dir: string, runId: string): Paper {
  for (const c of CANDIDATES) {
    const file = join(dir, c.file);
    const st = statOrNull(file);
    // a link out of the run is no paper of it: a node's code could have planted it
    if (!st?.isFile() || !isWithin(realOrSelf(dir), realOrSelf(file))) continue;
    const facts = paperFacts(dir) ?? { tex_path: null, pdf_path: null, title: null, pages: null };
    if (c.format === 'pdf') return { run_id: runId, file, format: 'pdf', size_bytes: st.size, ...facts };
    if (st.size > MAX_TEXT) throw new TooLargeError(`${file} is ${st.size} bytes, over the ${MAX_TEXT}-byte limit for inline text`, 'read the file directly');
    return { run_id: runId, file, format: 'latex', content: readFileSync(file, 'utf8'), ...facts };
  }
  throw new NotFoundError(`no paper yet for run ${runId}`, 'this version of svc stops after the tree search; the paper pipeline comes later');
}
