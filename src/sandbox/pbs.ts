/**
 * Jobs on a PBS Pro or Torque cluster: `qsub <script>` prints the job id, one `qstat -f` with all
 * our ids answers for all of them (PBS Pro: `-x -F json`; Torque: the text form), `qdel` cancels. Account lines (`#PBS -A`) are stripped like Slurm's.
 */
import type { JobSpec } from './executor.ts';
import type { SchedulerCli, SchedulerOptions } from './batch-executor.ts';
import { BatchExecutor, firstLine } from './batch-executor.ts';
import { shellQuote, bodyOf, wrapperScript } from './job-state.ts';
import { systemRunner } from './slurm-runner.ts';
import type { BatchPaths } from './slurm-script.ts';
import { checkHeaderValues, jobName, splitDirectives } from './slurm-script.ts';
import type { SchedulerState } from './slurm-state.ts';
import { SvcError } from '../core/errors.ts';
import { mapPbsState, parseQstatJson, parseQstatText } from './pbs-state.ts';

const ACCOUNT_DIRECTIVE = /^\s*#PBS\s+-A/;
const DIRECTIVE = /^\s*#PBS\s/;

export interface PbsOptions extends SchedulerOptions {
  /** 'json' for PBS Pro (`qstat -F json`), 'text' for Torque. */
  qstatFormat?: 'json' | 'text';
}

export function pbsExecutor(opts: PbsOptions): BatchExecutor {
  return new BatchExecutor(pbsCli(opts.qstatFormat ?? 'json'), { ...opts, runner: opts.runner ?? systemRunner(process.env, 'PBS') });
}

export function pbsScript(spec: JobSpec, paths: BatchPaths): string {
  checkHeaderValues(spec, paths);
  const { directives, body } = splitDirectives(bodyOf(spec), DIRECTIVE, ACCOUNT_DIRECTIVE);
  const select = [
    ...(spec.cpus ? [`ncpus=${spec.cpus}`] : []),
    ...(spec.memGb ? [Number.isInteger(spec.memGb) ? `mem=${spec.memGb}gb` : `mem=${Math.ceil(spec.memGb * 1024)}mb`] : []),
    ...(spec.gpus ? [`ngpus=${spec.gpus}`] : []),
  ];
  const header = [
    `#PBS -N ${jobName(spec.name)}`,
    `#PBS -l walltime=${hms(spec.wallTimeS)}`,
    ...(select.length ? [`#PBS -l select=1:${select.join(':')}`] : []),
    ...(spec.partition ? [`#PBS -q ${spec.partition}`] : []),
    // a directory: PBS names the files <job name>.o<sequence number> / .e<sequence number>
    `#PBS -o ${paths.logDir}/`,
    `#PBS -e ${paths.logDir}/`,
  ];
  const exitWord = `${shellQuote(paths.stateDir)}/"$PBS_JOBID".exit`;
  // PBS starts the job in $HOME: go to the work dir first.
  return ['#!/bin/bash', ...directives, ...header, `cd ${shellQuote(spec.workDir)} || exit 1`, wrapperScript(body, exitWord, spec.env)].join('\n');
}

function pbsCli(format: 'json' | 'text'): SchedulerCli {
  return {
    kind: 'pbs',
    script: pbsScript,
    submit: (path) => ({ argv: ['qsub', path], stdin: false }),
    parseSubmit: (stdout) => /^\s*(\d+(?:\[\])?(?:\.[\w.-]+)?)\s*$/.exec(stdout)?.[1] ?? null,
    query: async (ids, run, cancelled) => {
      // PBS Pro's -x adds finished jobs; Torque keeps them (state C) without it, and its -x means XML
      const res = await run(format === 'json' ? ['qstat', '-x', '-f', '-F', 'json', ...ids] : ['qstat', '-f', ...ids]);
      // qstat lists the jobs it knows and exits non-zero naming each one it does not
      if (res.code !== 0 && !/Unknown Job Id/i.test(res.stderr)) throw new SvcError(`qstat failed: ${firstLine(res.stderr)}`);
      const jobs = format === 'json' ? parseQstatJson(res.stdout) : parseQstatText(res.stdout);
      const out = new Map<string, SchedulerState>();
      for (const [id, job] of jobs) out.set(id, mapPbsState(job, cancelled.has(id)));
      return out;
    },
    cancelArgv: (id) => ['qdel', id],
    logPaths: (spec, logDir, id) => {
      const seq = id.split('.')[0] ?? id;
      const name = jobName(spec.name);
      return { stdoutPath: `${logDir}/${name}.o${seq}`, stderrPath: `${logDir}/${name}.e${seq}` };
    },
  };
}

/** PBS walltime as HH:MM:SS, at least one second. */
export function hms(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}
