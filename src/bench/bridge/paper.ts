import type { Env } from '../../core/config/env-vars.ts';
import { InputError } from '../../core/errors.ts';
import { type PaperSource, readPaper } from '../../replicate/paper.ts';

/** The paper of a bridge call: read already (`paper`), or its Markdown text (`paper_md`). */
export async function bridgePaper(p: { paper_md?: string | undefined; paper?: PaperSource | undefined }, env: Env): Promise<PaperSource> {
  if (p.paper && p.paper_md !== undefined) throw new InputError('both paper and paper_md are given', 'give one of them');
  if (p.paper) return p.paper;
  if (p.paper_md === undefined || p.paper_md.trim() === '') throw new InputError('no paper: neither paper_md nor paper is given', 'give the paper as Markdown text (paper_md) or as read (paper)');
  return readPaper(null, p.paper_md, env);
}
