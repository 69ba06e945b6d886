/**
 * run_reproduce: the submission's reproduce.sh run once in the chosen sandbox, its output in
 * reproduce.log beside it, and what happened (sandbox, fallback, exit status, wall time, timeout)
 * written into the checkpoint as ors_phase1.json.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import type { Env } from '../core/config/env-vars.ts';
import { envValue } from '../core/config/env-vars.ts';
import { SvcError } from '../core/errors.ts';
import { MAX_TIMER_MS } from '../core/timers.ts';
import { readJsonObject } from '../core/json-object.ts';
import { definedEnv } from '../core/config/environment.ts';
import { envWithoutSecrets } from '../core/config/secrets.ts';
import { resolveInside } from '../core/paths.ts';
import { shellLine } from '../core/run-command.ts';
import { containerCommand } from '../sandbox/container.ts';
import { findBinary } from '../sandbox/detect.ts';
import { resolveImage } from '../sandbox/image.ts';
import type { SandboxKind } from '../sandbox/preconditions.ts';
import { applyPatchDir } from './apply-patch.ts';
import { runToLog, type ProcessOutcome } from './log-process.ts';
import { chooseSandbox, type Refusal, type RequestedSandbox, type SandboxChoice } from './sandbox-choice.ts';
import { runSlurmJob, type SlurmFlags } from './slurm-job.ts';
import { REPRODUCE_LOG, REPRODUCE_SCRIPT, submissionRoot } from './submission.ts';

export const PHASE1_RECORD_FILE = 'ors_phase1.json';
/** Where a reproduction's own files go (Slurm job records, the apply_patch commands): inside the checkpoint, outside the submission. */
export const REPRO_STATE_DIR = '.svc-reproduce';

/** The setting naming a container sandbox's image when none is given (its default is the variable's). */
const IMAGE_VARIABLE: Record<'docker' | 'apptainer' | 'singularity', string> = {
  docker: 'SVC_PHASE1_DOCKER_IMAGE',
  apptainer: 'SVC_PHASE1_APPTAINER_IMAGE',
  singularity: 'SVC_PHASE1_SINGULARITY_IMAGE',
};

export type ReproduceRequest = {
  checkpointDir: string;
  /** inside the checkpoint, checked by the caller */
  repoDir: string;
  rubricPath: string | null;
  sandbox: RequestedSandbox;
  image: string | null;
  /** seconds; 0: no limit */
  timeoutSec: number;
  /** whether a partition is named (auto prefers slurm only then) */
  partitionNamed: boolean;
  /** the Slurm job's flags, the partition resolved when the sandbox is slurm */
  slurm: () => Promise<SlurmFlags>;
  env: Env;
  /** variables reproduce.sh gets as they are, credentials included (an agent's env file, HF_TOKEN); the rest of `env` reaches it without secrets */
  grantedEnv?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  /** sandbox kinds the caller does not allow */
  refused?: Refusal;
};

export type ReproduceRecord = {
  sandbox_kind: SandboxKind;
  fallback?: SandboxChoice['fallback'];
  passed_over?: string[];
  exit_code: number | null;
  timed_out: boolean;
  wall_time_sec: number;
  log_path: string;
  started_at: string;
  ended_at: string;
  command: string;
  repo_dir: string;
  submission_dir: string;
  rubric_path: string | null;
  image?: string;
  job_id?: string;
  partition?: string | null;
};

export async function runReproduce(req: ReproduceRequest): Promise<ReproduceRecord> {
  const root = submissionRoot(req.repoDir);
  // the agent built the submission: a submission/ or reproduce.sh that is a link out of the checkpoint is refused
  resolveInside(req.checkpointDir, join(root, REPRODUCE_SCRIPT), 'reproduce.sh');
  const choice = await chooseSandbox(req.sandbox, req.env, req.partitionNamed, (k) => k === 'slurm' || k === 'local' || (req.image ?? '') !== '' || (req.env[IMAGE_VARIABLE[k]] ?? '') !== '', req.refused ?? null);
  const logPath = join(root, REPRODUCE_LOG);
  // a reproduce.log left there may be a link: writing through it would reach a file outside
  rmSync(logPath, { force: true });
  // the record of an earlier run would pass for this one's if this one is cancelled or crashes
  rmSync(join(req.checkpointDir, PHASE1_RECORD_FILE), { force: true });
  const stateDir = join(req.checkpointDir, REPRO_STATE_DIR);
  // a timer longer than this fires at once
  const timeoutMs = Math.min(Math.round(req.timeoutSec * 1000), MAX_TIMER_MS);
  const kind = choice.kind;
  // the script is code svc did not write, and its log is read by the judge and shown in reports:
  // every way it runs (the process, sbatch's exported environment, apptainer's host environment) gets this
  const scriptEnv = envWithoutSecrets(req.env, req.grantedEnv);
  const extra: Partial<ReproduceRecord> = {};
  let command: string[];
  let run: () => Promise<ProcessOutcome>;
  if (kind === 'local') {
    const bin = applyPatchDir(join(stateDir, 'bin'));
    const env = { ...scriptEnv, PATH: [bin, scriptEnv.PATH].filter(Boolean).join(':') };
    command = [findBinary('bash', req.env) ?? '/bin/bash', REPRODUCE_SCRIPT];
    run = () => runToLog({ argv: command, cwd: root, env, logPath, timeoutMs, signal: req.signal });
  } else if (kind === 'slurm') {
    const flags = await req.slurm();
    extra.partition = flags.partition;
    command = ['sbatch', `bash ${REPRODUCE_SCRIPT} > ${REPRODUCE_LOG} 2>&1`];
    run = async () => {
      const r = await runSlurmJob({ root, script: REPRODUCE_SCRIPT, logPath, jobsDir: join(stateDir, 'jobs'), env: scriptEnv, flags, timeoutMs, signal: req.signal });
      extra.job_id = r.jobId;
      return r;
    };
  } else {
    const image = resolveImage(req.image ?? envValue(req.env, IMAGE_VARIABLE[kind]) ?? '');
    extra.image = image;
    // docker: a named container, so that a timeout can kill it in its daemon
    const name = kind === 'docker' ? `svc-reproduce-${crypto.randomUUID().slice(0, 8)}` : undefined;
    const binary = findBinary(kind, req.env) ?? kind;
    // docker passes only the variables named (by name: a value is never on the command line); apptainer and singularity the whole of scriptEnv
    const passEnv = kind === 'docker' ? Object.keys(req.grantedEnv ?? {}) : [];
    command = containerCommand({ runtime: kind, binary, image, workDir: root, command: `bash ${REPRODUCE_SCRIPT}`, passEnv, ...(name ? { name } : {}) });
    const onTimeout = name ? async () => void (await Bun.spawn([binary, 'kill', name], { env: definedEnv(scriptEnv), stdout: 'ignore', stderr: 'ignore' }).exited) : undefined;
    run = () => runToLog({ argv: command, cwd: root, env: scriptEnv, logPath, timeoutMs, signal: req.signal, ...(onTimeout ? { onTimeout } : {}) });
  }
  const started = new Date();
  const t0 = performance.now();
  const outcome = await run();
  const wall = (performance.now() - t0) / 1000;
  // stopped because the caller gave up: no record of a run that was not let finish
  if (req.signal?.aborted) throw new SvcError('run_reproduce was stopped: the call was cancelled', 'run it again to reproduce');
  const record: ReproduceRecord = {
    sandbox_kind: kind,
    ...(choice.fallback ? { fallback: choice.fallback } : {}),
    ...(choice.passed_over ? { passed_over: choice.passed_over } : {}),
    exit_code: outcome.exitCode,
    timed_out: outcome.timedOut,
    wall_time_sec: Math.round(wall * 1000) / 1000,
    log_path: logPath,
    started_at: started.toISOString(),
    ended_at: new Date(started.getTime() + wall * 1000).toISOString(),
    command: shellLine(command),
    repo_dir: req.repoDir,
    submission_dir: root,
    rubric_path: req.rubricPath,
    ...extra,
  };
  writeJsonAtomic(join(req.checkpointDir, PHASE1_RECORD_FILE), record);
  return record;
}

/** How a run of reproduce.sh ended: what the judge is told, and the grade records. */
export type RunOutcome = { exit_code: number | null; timed_out: boolean; wall_time_sec: number | null };

/**
 * How the last run of `repoDir`'s reproduce.sh ended, from the checkpoint's ors_phase1.json; null
 * when that record is missing, unreadable or of another repository.
 */
export function lastRunOf(checkpointDir: string, repoDir: string): RunOutcome | null {
  let r: Record<string, unknown> | null;
  try {
    r = readJsonObject(join(checkpointDir, PHASE1_RECORD_FILE));
  } catch {
    return null;
  }
  if (!r || typeof r.repo_dir !== 'string' || resolve(r.repo_dir) !== resolve(repoDir)) return null;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return { exit_code: num(r.exit_code), timed_out: r.timed_out === true, wall_time_sec: num(r.wall_time_sec) };
}
