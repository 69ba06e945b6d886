import judgeTemplate from '../prompts/grading/judge_leaf.md' with { type: 'text' };
import { oneLine } from '../core/errors.ts';
import { isMapping } from '../core/values.ts';
import type { ModelClient } from '../llm/client.ts';
import { fillOwnPrompt } from '../prompts/templates.ts';
import type { RubricNode } from '../schema/ors-rubric.ts';
import type { SubmissionView } from './submission.ts';
import type { JudgeContext, LeafVerdict, RunOutcome } from './types.ts';

const MAX_PAPER_CHARS = 40_000;
const MAX_LISTED_FILES = 300;
const MAX_FILE_CHARS = 12_000;
const MAX_CONTENTS_CHARS = 60_000;
/** Files the judge reads first: how the submission runs and says what it is. */
const FIRST = ['reproduce.sh', 'README.md', 'README'];
/** Independent runs are samples, not repeats: a judge at temperature 0 would give one grade n times. */
const JUDGE_TEMPERATURE = 0.7;
const MAX_EVIDENCE = 20;

/** Who the judge is: a reviewer grading a reproduction, or (paper_audit_mode) one auditing the paper's claims against its code and logs. */
const STANCE = {
  reproduction: 'You grade one requirement of a rubric for an independent reproduction of a research paper, as a\nstrict reviewer would.',
  audit: "You are a reviewer auditing whether a research paper's claims are supported by the code and logs\nsubmitted with it; you grade one requirement of its rubric, as a strict auditor would.",
} as const;
export type JudgeStance = keyof typeof STANCE;

export function judgeContext(paperText: string, view: SubmissionView, run: RunOutcome | null = null, stance: JudgeStance = 'reproduction'): JudgeContext {
  const paper = paperText.trim();
  const log = view.log === null ? '(no reproduce.log: the submission was not run)' : view.log.trim() === '' ? '(reproduce.log is empty)' : view.log;
  return {
    stance: STANCE[stance],
    paper: paper.length > MAX_PAPER_CHARS ? `${paper.slice(0, MAX_PAPER_CHARS)}\n[... the rest of the paper cut ...]` : paper,
    files: renderFiles(view),
    log: view.log === null || run === null ? log : `${runLine(run)}\n${log}`,
    paths: view.files.map((f) => f.path),
    logText: view.log ?? '',
  };
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Whether a piece of evidence points to what the judge was shown: it names a file of the submission
 * (the path, optionally with ./ before or a line or remark after it), or it is text of the log,
 * whitespace aside.
 */
export function evidenceShown(evidence: string, ctx: Pick<JudgeContext, 'paths' | 'logText'>): boolean {
  const e = evidence.trim().replace(/^\.\//, '');
  if (ctx.paths.some((p) => e === p || (e.startsWith(p) && /^[\s:#(,]/.test(e.slice(p.length))))) return true;
  const line = squash(e);
  return line !== '' && squash(ctx.logText).includes(line);
}

/**
 * How the run ended, as run_reproduce recorded it: the judge must not take a cut-off log for a
 * finished run. No wall time: it differs from run to run and says nothing a leaf asks.
 */
function runLine(run: RunOutcome): string {
  if (run.timed_out) return '(the run was stopped at its time limit, before reproduce.sh finished; the log ends there)';
  return `(the run ended with exit code ${run.exit_code ?? 'unknown'})`;
}

function renderFiles(view: SubmissionView): string {
  if (view.files.length === 0) return '(the submission has no files)';
  const listed = view.files.slice(0, MAX_LISTED_FILES).map((f) => `- ${f.path} (${f.bytes} bytes)`);
  if (view.files.length > MAX_LISTED_FILES) listed.push(`- ... and ${view.files.length - MAX_LISTED_FILES} more files`);
  const rank = (p: string) => (FIRST.includes(p) ? FIRST.indexOf(p) : FIRST.length);
  const shown = view.files.filter((f) => f.text !== null).sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path));
  const parts: string[] = [];
  let room = MAX_CONTENTS_CHARS;
  let left = 0;
  for (const f of shown) {
    if (room <= 0) {
      left++;
      continue;
    }
    const text = (f.text as string).slice(0, Math.min(MAX_FILE_CHARS, room));
    const cut = text.length < (f.text as string).length ? '\n[... cut ...]' : '';
    parts.push(`### ${f.path}\n\`\`\`\n${text}${cut}\n\`\`\``);
    room -= text.length;
  }
  if (left) parts.push(`(${left} more text files not shown)`);
  return `${listed.join('\n')}\n\n${parts.join('\n\n') || '(no text file small enough to show)'}`;
}

/**
 * What is wrong with an answer's shape (asked again once), or null. The range of the score is not
 * checked here: a judge that answers 5 for a pass/fail question is not corrected into a grade, its
 * leaf fails (gradeLeaf).
 */
export function answerProblem(v: unknown, leafId: string): string | null {
  if (!isMapping(v)) return 'the answer is not a JSON object';
  if (typeof v.score !== 'number' || !Number.isFinite(v.score)) return 'score is not a number (0 or 1)';
  if (typeof v.explanation !== 'string') return 'explanation is not a string';
  if (v.evidence !== undefined && (!Array.isArray(v.evidence) || v.evidence.some((e) => typeof e !== 'string'))) return 'evidence is not a list of strings';
  // an answer about another leaf is no grade of this one
  if (v.leaf_id !== undefined && v.leaf_id !== leafId) return `leaf_id '${String(v.leaf_id)}' is not the leaf asked (${leafId})`;
  return null;
}

/**
 * One leaf graded once. Fails closed: no answer, an answer still malformed after one correction,
 * or a score other than 0 or 1 grades the leaf 0 with judge_error saying why. Only an abort of the
 * whole grade is thrown.
 */
export async function gradeLeaf(client: Pick<ModelClient, 'completeJson'>, leaf: RubricNode, ctx: JudgeContext, run: number, signal?: AbortSignal): Promise<LeafVerdict> {
  const system = fillOwnPrompt(
    judgeTemplate,
    { stance: ctx.stance, leaf_id: leaf.id, task_category: leaf.task_category ?? '(none)', requirement: leaf.requirements, paper: ctx.paper, files: ctx.files, log: ctx.log },
    'grading/judge_leaf',
  );
  let answer: Record<string, unknown>;
  try {
    answer = await client.completeJson<Record<string, unknown>>(
      {
        role: 'judge',
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: 'Grade the requirement. Answer with the JSON object only.' },
        ],
        temperature: JUDGE_TEMPERATURE,
        seed: run,
        meta: { phase: 'paper', skill: 'paper-re-skill', component: 'judge', op: 'judge_leaf' },
        ...(signal ? { signal } : {}),
      },
      (v) => answerProblem(v, leaf.id),
      { retries: 1 },
    );
  } catch (err) {
    if (signal?.aborted) throw err;
    return failed(`no usable answer: ${oneLine(err)}`);
  }
  const explanation = (answer.explanation as string).trim();
  const named = ((answer.evidence as string[] | undefined) ?? []).map((e) => e.trim()).filter(Boolean).slice(0, MAX_EVIDENCE);
  // the prompt says evidence the judge cannot point to in what it is shown does not count: it is kept apart
  const evidence = named.filter((e) => evidenceShown(e, ctx));
  const evidence_unverified = named.filter((e) => !evidenceShown(e, ctx));
  if (answer.score !== 0 && answer.score !== 1) return { ...failed(`score ${answer.score} is out of range (0 or 1)`), explanation, evidence, evidence_unverified };
  return { score: answer.score, explanation, evidence, evidence_unverified };
}

function failed(why: string): LeafVerdict {
  return { score: 0, explanation: '', evidence: [], evidence_unverified: [], judge_error: why };
}
