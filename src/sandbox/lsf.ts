/**
 * Jobs on an LSF cluster: `bsub < script` (so the #BSUB lines are read) prints
 * "Job <123> is submitted to queue <normal>.", one `bjobs -json` call answers for all our ids,
 * `bkill` cancels. Project lines (`#BSUB -P`) are stripped like Slurm's account flags.
 */
import type { JobSpec } from './executor.ts';
import type { SchedulerCli, SchedulerOptions } from './batch-executor.ts';
import { BatchExecutor } from './batch-executor.ts';
import { bodyOf, shellQuote, wrapperScript } from './job-state.ts';
import { parseBjobsJson } from './lsf-state.ts';
import { systemRunner } from './slurm-runner.ts';
import type { BatchPaths } from './slurm-script.ts';
import { checkHeaderValues, jobName, logPaths, splitDirectives, wallMinutes } from './slurm-script.ts';

const PROJECT_DIRECTIVE = /^\s*#BSUB\s+-P/;
const DIRECTIVE = /^\s*#BSUB\s/;

export function lsfExecutor(opts: SchedulerOptions): BatchExecutor {
  return new BatchExecutor(LSF_CLI, { ...opts, runner: opts.runner ?? systemRunner(process.env, 'LSF') });
}

export function lsfScript(spec: JobSpec, paths: BatchPaths): string {
  checkHeaderValues(spec, paths);
  const { directives, body } = splitDirectives(bodyOf(spec), DIRECTIVE, PROJECT_DIRECTIVE);
  const name = jobName(spec.name);
  const header = [
    `#BSUB -J ${name}`,
    `#BSUB -W ${wallMinutes(spec.wallTimeS)}`,
    `#BSUB -cwd ${spec.workDir}`,
    `#BSUB -o ${paths.logDir}/${name}-%J.out`,
    `#BSUB -e ${paths.logDir}/${name}-%J.err`,
    ...(spec.cpus ? [`#BSUB -n ${spec.cpus}`] : []),
    ...(spec.memGb ? [`#BSUB -R "rusage[mem=${Math.ceil(spec.memGb * 1024)}MB]"`] : []),
    ...(spec.partition ? [`#BSUB -q ${spec.partition}`] : []),
    ...(spec.gpus ? [`#BSUB -gpu "num=${spec.gpus}"`] : []),
  ];
  const exitWord = `${shellQuote(paths.stateDir)}/"$LSB_JOBID".exit`;
  return ['#!/bin/bash', ...directives, ...header, wrapperScript(body, exitWord, spec.env)].join('\n');
}

const LSF_CLI: SchedulerCli = {
  kind: 'lsf',
  script: lsfScript,
  submit: () => ({ argv: ['bsub'], stdin: true }),
  parseSubmit: (stdout) => /Job <(\d+)> is submitted/.exec(stdout)?.[1] ?? null,
  // bjobs exits non-zero when some id is unknown, and still prints a record for every id
  query: async (ids, run, cancelled) => parseBjobsJson((await run(['bjobs', '-o', 'jobid stat exit_code exit_reason', '-json', ...ids])).stdout, cancelled),
  cancelArgv: (id) => ['bkill', id],
  // the same file names as Slurm's
  logPaths,
};
