import { runningPid } from '../core/checkpoint/pid.ts';
import { ConflictError, InputError } from '../core/errors.ts';
import type { Workflow } from '../schema/workflow.ts';
import { readLaunchConfig } from './launch-config.ts';
import { launchConfigEnv } from './run-env.ts';
import { type RunChild, type RunKind, spawnRun } from './spawn-run.ts';
import { inheritedEnv, type RunHost, svcProgram } from './start-run.ts';

/** Stage names that mean "the tree search", besides the stages of the workflow's bfts_pipeline. */
const SEARCH_ALIASES = ['bfts', 'resume'];
/** The command line's name for the whole post-search pipeline. */
const PIPELINE_ALIASES = ['paper'];

/** What a run-stage request asks for: the search (resumed), or a stage of the post-search pipeline. */
export type StagePlan = { kind: 'search'; stage: string } | { kind: 'post_search'; stage: string };

/**
 * Classifies a stage name against the workflow. An unknown name is refused with the known ones,
 * so a client can correct it.
 */
export function planStage(stage: unknown, wf: Workflow): StagePlan {
  const search = [...SEARCH_ALIASES, ...wf.bfts_pipeline.map((s) => s.stage)];
  const post = [...PIPELINE_ALIASES, ...wf.pipeline.map((s) => s.stage)];
  if (typeof stage !== 'string' || stage === '') throw new InputError('stage is required: the name of a workflow stage', `stages: ${unique([...search, ...post]).join(', ')}`);
  if (search.includes(stage)) return { kind: 'search', stage };
  if (post.includes(stage)) return { kind: 'post_search', stage };
  throw new InputError(`unknown stage '${stage.slice(0, 80)}'`, `stages: ${unique([...search, ...post]).join(', ')}`);
}

/**
 * Resumes the search of `checkpoint`: `svc resume <ckpt>` started like a launch (own process
 * group, output to a new svc_run_<epoch>.log), with the choices its launch_config.json recorded
 * in its environment. A checkpoint some process is still running is refused.
 */
export async function resumeRun(opts: RunHost & { checkpoint: string }): Promise<{ ok: true; pid: number; checkpoint_path: string; stage: 'resume' }> {
  const child = await startOnCheckpoint(opts, 'resume', ['resume', opts.checkpoint], () => {
    const record = readLaunchConfig(opts.checkpoint);
    return record ? launchConfigEnv(record, opts.env) : {};
  });
  return { ok: true, pid: child.pid, checkpoint_path: opts.checkpoint, stage: 'resume' };
}

/**
 * Runs the post-search pipeline of `checkpoint` (`paper`), or one stage of it, as
 * `svc paper <ckpt> [--stage <stage>]`, started like a launch. A checkpoint some process is still
 * running is refused.
 */
export async function runPostSearchStage(opts: RunHost & { checkpoint: string; stage: string }): Promise<{ ok: true; pid: number; checkpoint_path: string; stage: string }> {
  const child = await startOnCheckpoint(opts, 'paper', ['paper', opts.checkpoint, ...(PIPELINE_ALIASES.includes(opts.stage) ? [] : ['--stage', opts.stage])], () => ({}));
  return { ok: true, pid: child.pid, checkpoint_path: opts.checkpoint, stage: opts.stage };
}

/** `svc <args>` on a checkpoint no process is running, started like a launch; `env` is read once that is checked. */
async function startOnCheckpoint(opts: RunHost & { checkpoint: string }, kind: RunKind, args: string[], env: () => Record<string, string>): Promise<RunChild> {
  // the recorded PID is only looked at, never signalled
  const pid = runningPid(opts.checkpoint);
  if (pid !== null) throw new ConflictError(`the run of ${opts.checkpoint} is still running (pid ${pid})`, 'stop it first, or wait until it ends');
  const child = await spawnRun({ kind, program: svcProgram(opts), args, checkpoint: opts.checkpoint, env: { ...inheritedEnv(opts.env), ...env(), SVC_CHECKPOINT_DIR: opts.checkpoint }, cwd: opts.cwd });
  return opts.supervisor.track(child);
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}
