import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic.ts';
import { NotFoundError } from '../core/errors.ts';

export const PLAN_START = '<!-- AUTO-APPENDED BY svc (idea.json) — DO NOT EDIT -->';
export const PLAN_END = '<!-- END AUTO-APPENDED -->';
/** The reference implementation's start marker: its block is replaced by ours. */
const OTHER_STARTS = ['<!-- AUTO-APPENDED BY VirSci (idea.json) — DO NOT EDIT -->'];

export type PlanPromoteMode = 'full' | 'index_only' | 'off';

/** The fields of an idea the block shows. */
export type PromotedIdea = { title: string; description?: string; experiment_plan?: unknown };

/**
 * Writes the chosen idea into the checkpoint's experiment.md between the marker comments: the
 * whole idea and plan (full) or its title and where the rest is (index_only). A block already
 * there is replaced, so calling again with the same idea leaves the file byte for byte the same.
 * Off, or no idea, changes nothing. Returns whether the file changed.
 */
export function promotePlan(checkpointDir: string, idea: PromotedIdea | null, mode: PlanPromoteMode): boolean {
  if (mode === 'off' || !idea) return false;
  const path = join(checkpointDir, 'experiment.md');
  let before: string;
  try {
    before = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError(`the checkpoint has no experiment.md: ${path}`, 'plan_promote edits the checkpoint copy of the experiment; create the checkpoint first');
    throw err;
  }
  const after = `${withoutBlock(before).trimEnd()}\n\n${PLAN_START}\n${blockBody(idea, mode)}\n${PLAN_END}\n`;
  if (after === before) return false;
  writeFileAtomic(path, after);
  return true;
}

/** The text with the first auto-appended block (ours or the reference implementation's) cut out. */
function withoutBlock(text: string): string {
  for (const start of [PLAN_START, ...OTHER_STARTS]) {
    const s = text.indexOf(start);
    if (s < 0) continue;
    const e = text.indexOf(PLAN_END, s);
    // an unterminated block runs to the end: it was ours and cut short by an editor
    return e < 0 ? text.slice(0, s) : text.slice(0, s) + text.slice(e + PLAN_END.length);
  }
  return text;
}

function blockBody(idea: PromotedIdea, mode: 'full' | 'index_only'): string {
  if (mode === 'index_only') return `## Selected research idea\n\n${idea.title}\n\nThe description and experiment plan are ideas[0] of idea.json in this checkpoint.`;
  const plan = typeof idea.experiment_plan === 'string' ? idea.experiment_plan : idea.experiment_plan === undefined ? '' : JSON.stringify(idea.experiment_plan, null, 2);
  const parts = ['## Selected research idea', `### ${idea.title}`];
  if (idea.description) parts.push(idea.description.trim());
  if (plan.trim()) parts.push('### Experiment plan', plan.trim());
  return parts.join('\n\n');
}
