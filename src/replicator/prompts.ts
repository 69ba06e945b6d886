import systemTemplate from '../prompts/paper_re/replicator.md' with { type: 'text' };
import taskTemplate from '../prompts/paper_re/replicator_task.md' with { type: 'text' };
import { listFiles } from '../agent/files-diff.ts';
import { fillOwnPrompt } from '../prompts/templates.ts';

/** The paper is the agent's spec; beyond this it crowds out the work in the context window. */
const PAPER_MAX_CHARS = 24000;
const RUBRIC_MAX_CHARS = 8000;
const MAX_LISTED_FILES = 80;

export type ReplicatorPromptInput = {
  toolDesc: string;
  workDir: string;
  /** where run_code and run_bash run */
  sandbox: string;
  iterative: boolean;
  maxSteps: number;
  timeLimitSec: number;
  paper: string;
  /** the rubric's leaf requirements, one a line; '' when no rubric was given */
  rubric: string;
  /** addresses the agent must not fetch from (bridge rule 6) */
  blacklistUrls?: readonly string[];
};

const PLAN_THEN_BUILD =
  'Plan once: with your first tool calls, read the bundle (README, results, code) and say in a sentence or two which experiments reproduce.sh will run. Then build the script, run it once, fix what fails and finish; do not keep polishing once it runs.';
const ITERATIVE =
  'Work iteratively: build the script, run it, compare what it prints with the paper, and improve it step by step (more of the reported experiments, fewer failures) until it reproduces everything it can; then finish.';

export function replicatorSystem(p: ReplicatorPromptInput): string {
  return fillOwnPrompt(
    systemTemplate,
    {
      tool_desc: p.toolDesc,
      work_dir: p.workDir,
      files: fileList(p.workDir),
      sandbox: p.sandbox,
      mode: p.iterative ? ITERATIVE : PLAN_THEN_BUILD,
      max_steps: p.maxSteps,
      time_limit_minutes: Math.max(1, Math.round(p.timeLimitSec / 60)),
    },
    'paper_re/replicator',
  );
}

export function replicatorTask(p: ReplicatorPromptInput): string {
  const task = fillOwnPrompt(taskTemplate, { paper: clip(p.paper.trim(), PAPER_MAX_CHARS), rubric: p.rubric.trim() === '' ? 'no rubric given: reproduce every number the paper reports' : clip(p.rubric, RUBRIC_MAX_CHARS) }, 'paper_re/replicator_task');
  // only added when there is a list, so the task of every other build stays as it was
  return p.blacklistUrls?.length ? `${task}\n\n${forbiddenUrlsBlock(p.blacklistUrls)}` : task;
}

/** The forbidden addresses, as the agent reads them; its commands also see them in SVC_BLACKLIST_URLS. */
export function forbiddenUrlsBlock(urls: readonly string[]): string {
  return [
    '# Forbidden URLs',
    'Do not fetch, clone, download or read anything from these addresses, or from anything under them, by any tool or command (they hold the paper\'s own code or results, which a reproduction must not copy). The list is also in the SVC_BLACKLIST_URLS environment variable, one a line.',
    ...urls.map((u) => `- ${u}`),
  ].join('\n');
}

/** Names only, sorted, so the same bundle gives the same prompt. */
function fileList(dir: string): string {
  const names = listFiles(dir);
  if (names.length === 0) return 'none';
  const shown = names.slice(0, MAX_LISTED_FILES).join(', ');
  return names.length > MAX_LISTED_FILES ? `${shown} and ${names.length - MAX_LISTED_FILES} more` : shown;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
