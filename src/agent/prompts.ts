import nodeTaskTemplate from '../prompts/agent/node_task.md' with { type: 'text' };
import systemTemplate from '../prompts/agent/system.md' with { type: 'text' };
import type { IdeaFile } from '../schema/checkpoint.ts';
import type { NodeLabel, NodeTask } from '../search/contract.ts';
import { listFiles } from './files-diff.ts';
import { fillOwnPrompt } from '../prompts/templates.ts';

/** What each label asks of a node, appended to the system prompt as its role. */
export const ROLE_HINTS: Readonly<Record<NodeLabel, string>> = {
  draft: 'DRAFT: build a first complete, working implementation of the idea and measure it. Favour a small end-to-end version that runs over an ambitious one that does not.',
  improve: "IMPROVE: start from the parent's working code and make it measurably better on the primary metric. Change one thing at a time and compare against the parent's numbers.",
  debug: "DEBUG: the parent failed or produced wrong results. Find the cause in its code and output, fix it, and show a run that works.",
  ablation: "ABLATION: remove or vary one component of the parent's method and measure how much each part contributes. Keep everything else fixed.",
  validation: "VALIDATION: re-run the parent's experiment under other conditions (seeds, sizes, inputs) to check its results hold. Report the spread, not one number.",
  other: 'OTHER: follow the direction given in the task; keep the work measurable.',
};

const GOAL_MAX_CHARS = 3000;
const IDEA_MAX_CHARS = 3000;
const PARENT_SUMMARY_MAX_CHARS = 1500;

export function systemPrompt(task: NodeTask, toolDesc: string): string {
  const { ctx } = task;
  return fillOwnPrompt(systemTemplate, {
    tool_desc: toolDesc,
    role_hint: ROLE_HINTS[task.node.label],
    work_dir: task.workDir,
    files: fileList(task.workDir),
    cpus: String(ctx.workflow.resources.cpus),
    max_steps: String(ctx.settings.maxReact),
    timeout_minutes: String(Math.max(1, Math.round(ctx.settings.timeoutNodeS / 60))),
  });
}

export function nodeTaskPrompt(task: NodeTask): string {
  const { ctx, node, parent } = task;
  return fillOwnPrompt(nodeTaskTemplate, {
    goal: clip(ctx.goal.trim(), GOAL_MAX_CHARS),
    idea: ideaText(ctx.idea()),
    label: node.label,
    direction: node.original_direction ?? (parent ? 'continue from the parent node' : 'implement the idea and measure it'),
    parent: parent ? parentText(parent) : 'none: this is the root node, the work directory holds only the provided files',
  });
}

function ideaText(idea: IdeaFile | null): string {
  const first = idea?.ideas[0];
  if (!first) return 'none given';
  const plan = typeof first.experiment_plan === 'string' ? first.experiment_plan : first.experiment_plan === undefined ? '' : JSON.stringify(first.experiment_plan);
  const parts = [`## ${first.title}`, first.description ?? '', plan ? `### Plan\n${plan}` : '', idea?.primary_metric ? `Primary metric: ${idea.primary_metric} (${idea.higher_is_better === false ? 'lower' : 'higher'} is better)` : ''];
  return clip(parts.filter((p) => p !== '').join('\n\n'), IDEA_MAX_CHARS);
}

function parentText(parent: NodeTask['node']): string {
  const metrics = Object.fromEntries(Object.entries(parent.metrics).filter(([k, v]) => !k.startsWith('_') || k === '_scientific_score' || typeof v !== 'object'));
  return [
    `${parent.id} (${parent.label}, ${parent.status})`,
    `Summary: ${clip(parent.eval_summary ?? 'none', PARENT_SUMMARY_MAX_CHARS)}`,
    `Metrics: ${JSON.stringify(metrics)}`,
    parent.error_log ? `Error: ${clip(parent.error_log, 500)}` : '',
  ]
    .filter((l) => l !== '')
    .join('\n');
}

const MAX_LISTED_FILES = 50;

/** The work directory's files at the start (names only, sorted: no sizes or times, which vary between runs). */
function fileList(workDir: string): string {
  const names = listFiles(workDir);
  if (names.length === 0) return 'none';
  const shown = names.slice(0, MAX_LISTED_FILES).join(', ');
  return names.length > MAX_LISTED_FILES ? `${shown} and ${names.length - MAX_LISTED_FILES} more` : shown;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
