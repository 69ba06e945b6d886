import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import { readRecord } from '../core/checkpoint/records.ts';
import type { Env } from '../core/config/env-vars.ts';
import { ConflictError, InputError, InvalidRecordError } from '../core/errors.ts';
import { IdeaFile } from '../schema/checkpoint.ts';
import { readLaunchConfig } from './launch-config.ts';
import type { LaunchRequest } from './launch-request.ts';
import { launchConfigEnv, requestEnv } from './run-env.ts';
import { readRunMeta, type SubExperimentMeta, writeRunMeta } from './run-meta.ts';
import { type RunHost, startRun } from './start-run.ts';

/** The recursion limit when neither the request nor SVC_MAX_RECURSION_DEPTH gives one. */
export const DEFAULT_MAX_RECURSION_DEPTH = 3;

export type SubExperimentOptions = RunHost &
  Partial<Omit<LaunchRequest, 'experiment_md'>> & {
    parentCheckpoint: string;
    /** the child's goal; the parent's experiment.md when absent */
    experiment_md?: string;
    /** index into the parent's idea.json ideas: the child starts from that idea, pinned */
    inherit_idea_index?: number | null;
    /** the limit asked for; SVC_MAX_RECURSION_DEPTH, else 3. A parent's recorded limit is never exceeded. */
    max_recursion_depth?: number;
    /** more SVC_* choices (executor, CPUs...) for the child's environment */
    extraChoices?: Record<string, string>;
    /** variables only the child sees (an API key): never written to disk */
    secretEnv?: Record<string, string>;
  };

export type SubExperimentResult = { ok: true; pid: number; run_id: string; checkpoint_path: string; parent_run_id: string; recursion_depth: number; max_recursion_depth: number };

/**
 * Starts a child run of `parentCheckpoint` beside it: meta.json records the lineage (depth = the
 * parent's + 1), the parent's workflow.yaml is the child's and its launch choices the child's defaults, and with
 * `inherit_idea_index` the child's idea.json holds that idea pinned, so the child skips idea
 * generation. Refused (ConflictError) past the recursion limit.
 */
export async function launchSubExperiment(opts: SubExperimentOptions): Promise<SubExperimentResult> {
  const parent = opts.parentCheckpoint;
  const parentMeta = readRunMeta(parent);
  const parentRunId = parentMeta?.run_id || basename(parent);
  const depth = (parentMeta?.recursion_depth ?? 0) + 1;
  const asked = opts.max_recursion_depth ?? recursionLimitOf(opts.env);
  const limit = typeof parentMeta?.max_recursion_depth === 'number' ? Math.min(asked, parentMeta.max_recursion_depth) : asked;
  if (depth > limit) {
    throw new ConflictError(
      `sub-experiment refused: ${parentRunId} is at recursion depth ${depth - 1}, and a child would be at depth ${depth}, past max_recursion_depth ${limit}`,
      'continue in the parent run, or raise SVC_MAX_RECURSION_DEPTH for new lineages',
    );
  }
  const markdown = opts.experiment_md ?? parentExperiment(parent);
  const index = opts.inherit_idea_index ?? null;
  if (index !== null && !(Number.isInteger(index) && index >= 0)) throw new InputError(`inherit_idea_index must be a whole number of at least 0, got ${index}`);
  const seeded = index === null ? null : pinnedIdea(parent, parentRunId, index);
  const parentLaunch = readLaunchConfig(parent);
  const choices = { ...(parentLaunch ? launchConfigEnv(parentLaunch, opts.env) : {}), ...requestEnv(opts), ...opts.extraChoices };
  const profile = opts.profile ?? (typeof parentLaunch?.profile === 'string' ? parentLaunch.profile : null);
  let meta: SubExperimentMeta | undefined;
  const started = await startRun({
    ...opts,
    // children live beside their parent, whatever the launcher's own checkpoints directory
    checkpointsRoot: dirname(parent),
    markdown,
    choices,
    profile,
    launcher: 'sub-experiment',
    workflowFrom: parent,
    prepare: (dir, runId) => {
      meta = { run_id: runId, parent_run_id: parentRunId, recursion_depth: depth, max_recursion_depth: limit, created_at: new Date().toISOString(), checkpoint_dir: dir, inherit_idea_index: index };
      writeRunMeta(dir, meta);
      if (seeded) writeJsonAtomic(join(dir, 'idea.json'), seeded);
    },
  });
  return { ok: true, pid: started.pid, run_id: started.run_id, checkpoint_path: started.checkpoint_path, parent_run_id: parentRunId, recursion_depth: depth, max_recursion_depth: limit };
}

/** SVC_MAX_RECURSION_DEPTH, or the default; a value that is no whole number ≥ 0 is refused, naming the variable. */
export function recursionLimitOf(env: Env): number {
  const raw = env.SVC_MAX_RECURSION_DEPTH;
  if (raw === undefined || raw.trim() === '') return DEFAULT_MAX_RECURSION_DEPTH;
  if (!/^\d{1,4}$/.test(raw.trim())) throw new InputError(`SVC_MAX_RECURSION_DEPTH must be a whole number of at least 0, got '${raw}'`);
  return Number(raw.trim());
}

function parentExperiment(parent: string): string {
  try {
    return readFileSync(join(parent, 'experiment.md'), 'utf8');
  } catch {
    throw new InputError(`${parent} has no readable experiment.md`, 'give experiment_md for the child');
  }
}

/**
 * The child's idea.json: the parent's record with only the chosen idea, pinned, and where it came
 * from. The parent's own root choice and lineage marks stay with the parent.
 */
function pinnedIdea(parent: string, parentRunId: string, index: number): Record<string, unknown> {
  const problems: string[] = [];
  const record = readRecord(parent, 'idea.json', IdeaFile, problems);
  if (problems.length > 0) throw new InvalidRecordError(problems[0] ?? 'idea.json is unusable', 'fix the parent idea.json or launch without inherit_idea_index');
  if (!record) throw new ConflictError(`${parentRunId} has no idea.json yet, so there is no idea ${index} to inherit`, 'wait until its ideas are generated, or launch without inherit_idea_index');
  const idea = record.ideas[index];
  if (!idea) throw new InputError(`inherit_idea_index ${index} is out of range: ${parentRunId} has ${record.ideas.length} idea(s)`, `use 0 to ${Math.max(0, record.ideas.length - 1)}`);
  const { _root_choice: _choice, _inherited_from: _from, ...rest } = record as Record<string, unknown>;
  return { ...rest, ideas: [{ ...idea, _pinned: true }], _inherited_from: { parent_run_id: parentRunId, index } };
}
