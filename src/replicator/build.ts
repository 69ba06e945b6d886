import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import { UpstreamAnswerError } from '../core/errors.ts';
import { hashTree } from '../agent/files-diff.ts';
import { runReact } from '../agent/loop.ts';
import { type NodeTools, toolDescriptions } from '../agent/tools.ts';
import type { ModelClient } from '../llm/client.ts';
import type { PaperSource } from '../replicate/paper.ts';
import type { NodeExec } from '../sandbox/node-command.ts';
import { applyPatchDir } from '../reproduce/apply-patch.ts';
import { REPRODUCE_SCRIPT, reproduceScriptAt, submissionDir } from '../reproduce/submission.ts';
import { replicatorSystem, replicatorTask } from './prompts.ts';
import type { BuildSandbox } from './sandbox.ts';
import { MAX_TIMER_MS } from '../core/timers.ts';

export const RECORD_FILE = 'ors_replicator.json';
/** What an unfinished build's reproduce.sh is renamed to. */
export const UNFINISHED_SUFFIX = '.unfinished';
/** Steps of a plan-then-build agent when max_steps is 0: room to read, write, run and fix a few times. */
export const DEFAULT_MAX_STEPS = 40;
/** An iterative agent runs until it finishes or its time is spent; this only guards against a model that never stops. */
export const ITERATIVE_STEP_CAP = 1000;
const TRACE_KEPT_LINES = 200;

export type BuildInput = {
  client: Pick<ModelClient, 'complete'>;
  model: string;
  paper: PaperSource;
  /** the rubric's leaf requirements, one a line; '' without a rubric */
  rubric: string;
  checkpoint: string;
  outputDir: string;
  timeLimitSec: number;
  iterative: boolean;
  /** 0: the agent's default */
  maxSteps: number;
  overwrite: boolean;
  sandbox: BuildSandbox;
  /** the coding tools, every call made in workDir, stopped by this signal, with binDir first on PATH and run as exec says */
  tools: (workDir: string, signal: AbortSignal, binDir: string, exec: NodeExec | undefined) => NodeTools | Promise<NodeTools>;
  /** addresses the agent is told not to fetch from; the tools' commands get them in SVC_BLACKLIST_URLS */
  blacklistUrls?: readonly string[];
  signal: AbortSignal;
};

export type BuildResult = {
  output_dir: string;
  submission_root: string;
  /** the agent's reproduce.sh; null when it made none or ran out of time */
  reproduce_sh: string | null;
  steps: number;
  finished: boolean;
  timed_out: boolean;
  elapsed_sec: number;
  /** files added or changed in output_dir, relative to it */
  files_written: string[];
  model: string;
  sandbox_kind: string;
  record_path: string;
};

export type Skipped = { skipped: true; reason: string; output_dir: string; submission_root: string; reproduce_sh: string };

/**
 * An agent builds reproduce.sh in outputDir from the paper and the bundle there, through the same
 * ReAct loop a search node runs, within the time limit. The record (ors_replicator.json) is written
 * whatever happens; an agent that ends without its own reproduce.sh is an error, never papered over.
 */
export async function buildReproduce(input: BuildInput): Promise<BuildResult | Skipped> {
  const { outputDir } = input;
  mkdirSync(outputDir, { recursive: true });
  const existing = reproduceScriptAt(outputDir);
  if (existing && !input.overwrite) {
    return { skipped: true, reason: `${relative(outputDir, existing)} already exists; overwrite is false`, output_dir: outputDir, submission_root: submissionDir(outputDir), reproduce_sh: existing };
  }
  // only a script the agent made counts, never one left from before
  if (existing) rmSync(existing);

  const bin = applyPatchDir(mkdtempSync(join(tmpdir(), 'svc-apply-patch-')));
  try {
    return await runBuild(input, bin);
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

async function runBuild(input: BuildInput, binDir: string): Promise<BuildResult> {
  const { outputDir } = input;
  const limit = AbortSignal.timeout(Math.min(input.timeLimitSec * 1000, MAX_TIMER_MS));
  const signal = AbortSignal.any([input.signal, limit]);
  const maxSteps = input.maxSteps > 0 ? input.maxSteps : input.iterative ? ITERATIVE_STEP_CAP : DEFAULT_MAX_STEPS;
  const startedAt = new Date();
  const before = hashTree(outputDir);
  const tools = await input.tools(outputDir, signal, binDir, input.sandbox.exec);
  const prompt = { toolDesc: toolDescriptions(tools.infos), workDir: outputDir, sandbox: input.sandbox.description, iterative: input.iterative, maxSteps, timeLimitSec: input.timeLimitSec, paper: input.paper.text, rubric: input.rubric, ...(input.blacklistUrls?.length ? { blacklistUrls: input.blacklistUrls } : {}) };
  const loop = await runReact(
    {
      model: input.client,
      role: 'replicate',
      system: replicatorSystem(prompt),
      user: replicatorTask(prompt),
      maxSteps,
      maxStepsName: `max_steps=${maxSteps}`,
      meta: { phase: 'reproduce', component: 'replicator', op: 'react_step' },
      signal,
      stopReason: () => (limit.aborted ? `stopped after time_limit_sec=${input.timeLimitSec}; its processes were ended` : 'stopped because the call was cancelled; its processes were ended'),
    },
    tools,
  );
  const timedOut = loop.stopped && limit.aborted;
  const made = reproduceScriptAt(outputDir);
  // at the step limit the loop keeps work that printed output, but this agent never said it was done
  const finished = loop.status === 'success' && !loop.stepLimit;
  const result: BuildResult = {
    output_dir: outputDir,
    submission_root: submissionDir(outputDir),
    // a script from a build cut short is unfinished work, not a reproduction
    reproduce_sh: finished && !timedOut ? made : null,
    steps: loop.steps,
    finished,
    timed_out: timedOut,
    elapsed_sec: Math.round((Date.now() - startedAt.getTime()) / 100) / 10,
    files_written: written(before, hashTree(outputDir)),
    model: input.model,
    sandbox_kind: input.sandbox.kind,
    record_path: join(input.checkpoint, RECORD_FILE),
  };
  const error = failure(result, loop.error, loop.stepLimit, made);
  writeJsonAtomic(result.record_path, {
    ...result,
    error,
    sandbox_warning: input.sandbox.warning ?? null,
    summary: loop.summary,
    paper: input.paper.what,
    paper_sha256: input.paper.sha256,
    started_at: startedAt.toISOString(),
    tool_counts: loop.toolCounts,
    trace: loop.trace.slice(-TRACE_KEPT_LINES),
  });
  if (error === null) return result;
  // a script from a build that did not finish is set aside, so that nothing runs it as the reproduction
  if (made !== null) renameSync(made, `${made}${UNFINISHED_SUFFIX}`);
  throw new UpstreamAnswerError(error, `the agent's trace is in ${result.record_path}`);
}

/** Files the build added or changed, whichever tool made them (write_code, a patch, a command). */
function written(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after].filter(([path, sha]) => before.get(path) !== sha).map(([path]) => path).sort();
}

/** Why the build did not give a reproduce.sh, or null when it did. */
function failure(r: BuildResult, loopError: string | null, stepLimit: boolean, made: string | null): string | null {
  if (r.timed_out) return `the build ran out of time (${loopError ?? 'time limit'}); no ${REPRODUCE_SCRIPT} is claimed`;
  if (!r.finished) return `the agent did not finish: ${loopError ?? (stepLimit ? `it used all ${r.steps} of its steps (max_steps)` : 'no reason given')}`;
  if (made === null) return `the agent finished without a ${REPRODUCE_SCRIPT} at the submission root ${r.submission_root}`;
  return null;
}
