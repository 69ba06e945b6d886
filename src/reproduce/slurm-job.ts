/**
 * A reproduction as a Slurm batch job. The job's records live in a directory of their own, not in
 * the submission the grader reads; the job writes reproduce.log itself, on the shared file system.
 * A global timeout cancels it (scancel) and waits until the scheduler has ended it.
 */
import { mkdirSync } from 'node:fs';
import type { Env } from '../core/config/env-vars.ts';
import { InputError } from '../core/errors.ts';
import { printable } from '../core/text.ts';
import { isFinished, type JobStatus } from '../sandbox/executor.ts';
import { shellQuote } from '../sandbox/job-state.ts';
import { SlurmExecutor } from '../sandbox/slurm.ts';
import { systemRunner } from '../sandbox/slurm-runner.ts';
import type { ProcessOutcome } from './log-process.ts';

export type SlurmFlags = {
  partition: string | null;
  cpus?: number;
  memGb?: number;
  gpus?: number;
  gpuType?: string;
  exclusive?: boolean;
  nodes?: number;
  ntasks?: number;
  ntasksPerNode?: number;
  /** node features the job needs (sbatch --constraint) */
  constraint?: string;
  /** how srun binds a step's tasks to CPUs; sbatch has no such option, so the job exports SLURM_CPU_BIND, which srun reads */
  cpuBind?: string;
  /** more sbatch options, each one `--name[=value]` */
  extra?: string[];
  wallTimeS: number;
};

export type SlurmRun = { root: string; script: string; logPath: string; jobsDir: string; env: Env; flags: SlurmFlags; timeoutMs: number; signal?: AbortSignal };

/** First poll interval of the wait; it grows while the job's state does not change. */
const POLL_MS = 250;

export async function runSlurmJob(r: SlurmRun): Promise<ProcessOutcome & { jobId: string }> {
  mkdirSync(r.jobsDir, { recursive: true });
  const slurm = new SlurmExecutor({ stateDir: r.jobsDir, runner: systemRunner(r.env), pollMs: POLL_MS });
  const body = [...directives(r.flags), ...(r.flags.cpuBind ? [`export SLURM_CPU_BIND=${shellQuote(checkedWord(r.flags.cpuBind, 'cpu_bind', 'such as cores or map_cpu:0,1'))}`] : []), `cd ${shellQuote(r.root)} || exit 1`, `bash ${shellQuote(r.script)} > ${shellQuote(r.logPath)} 2>&1`].join('\n');
  const { flags } = r;
  const ref = await slurm.submit({
    script: body,
    workDir: r.jobsDir,
    name: 'reproduce',
    wallTimeS: flags.wallTimeS,
    ...(flags.partition ? { partition: flags.partition } : {}),
    ...(flags.cpus ? { cpus: flags.cpus } : {}),
    ...(flags.memGb ? { memGb: flags.memGb } : {}),
  });
  const stop = new AbortController();
  let timedOut = false;
  const timer = r.timeoutMs > 0 ? setTimeout(() => ((timedOut = true), stop.abort()), r.timeoutMs) : undefined;
  const onAbort = () => stop.abort();
  r.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const status = await slurm.wait(ref.id, { signal: stop.signal }).catch(async (err: unknown) => {
      if (!stop.signal.aborted) throw err;
      await slurm.cancel(ref.id).catch(() => {});
      return slurm.wait(ref.id);
    });
    return { jobId: ref.id, exitCode: exitOf(status), timedOut };
  } finally {
    clearTimeout(timer);
    r.signal?.removeEventListener('abort', onAbort);
  }
}

function exitOf(s: JobStatus): number | null {
  return isFinished(s) ? s.exitCode : null;
}

const OPTION = /^--[a-z][a-z0-9-]*(=[^\s\p{Cc}]+)?$/u;

/** `#SBATCH` lines for what the job spec has no field for; ahead of the spec's own, which win where both set something. */
function directives(f: SlurmFlags): string[] {
  const lines: string[] = [];
  if (f.exclusive) lines.push('--exclusive');
  if (f.nodes) lines.push(`--nodes=${f.nodes}`);
  if (f.ntasks) lines.push(`--ntasks=${f.ntasks}`);
  if (f.ntasksPerNode) lines.push(`--ntasks-per-node=${f.ntasksPerNode}`);
  if (f.constraint) lines.push(`--constraint=${checkedWord(f.constraint, 'constraint', 'such as a100&ib or [rack1|rack2]')}`);
  if (f.gpus) lines.push(`--gres=gpu:${f.gpuType ? `${checkedGpuType(f.gpuType)}:` : ''}${f.gpus}`);
  for (const opt of f.extra ?? []) {
    if (!OPTION.test(opt)) throw new InputError(`extra_sbatch_args entry '${printable(opt)}' is not one --option[=value]`, 'give each option as its own entry, such as --qos=high');
    lines.push(opt);
  }
  return lines.map((l) => `#SBATCH ${l}`);
}

/** What a constraint (features joined by & | , *, brackets) and a CPU binding (cores, map_cpu:0,1, verbose,...) are written with. */
const WORD = { constraint: /^[\w.,:&|!*[\]()-]+$/, cpu_bind: /^[\w.,:=+-]+$/ } as const;

/** A value that goes on a #SBATCH line or into the job's shell as one word of its own kind. */
function checkedWord(v: string, what: keyof typeof WORD, example: string): string {
  if (!WORD[what].test(v)) throw new InputError(`${what} '${printable(v)}' is not one word`, `give it without spaces, quotes or shell characters, ${example}`);
  return v;
}

function checkedGpuType(t: string): string {
  if (!/^[\w.-]+$/.test(t)) throw new InputError(`gpu_type '${printable(t)}' is not a GPU type name`, 'give one such as a100');
  return t;
}
