/**
 * The batch script svc hands to `sbatch`: our #SBATCH header from the job spec, the user's own
 * directives kept except account flags (stripped silently: the cluster's default account is used),
 * and the body in the wrapper that writes its exit code to `<state dir>/$SLURM_JOB_ID.exit`.
 */
import { InputError } from '../core/errors.ts';
import { printable } from '../core/text.ts';
import type { JobSpec } from './executor.ts';
import { bodyOf, shellQuote, wrapperScript } from './job-state.ts';

const ACCOUNT_DIRECTIVE = /^\s*#SBATCH\s+(?:--account(?:[=\s]|$)|-A)/;
const DIRECTIVE = /^\s*#SBATCH\s/;

export interface BatchPaths {
  /** Where the exit code and the job record go. */
  stateDir: string;
  /** Directory of the stdout/stderr files (SLURM_LOG_DIR or the state dir). */
  logDir: string;
}

export function batchScript(spec: JobSpec, paths: BatchPaths): string {
  checkHeaderValues(spec, paths);
  const { directives, body } = splitDirectives(bodyOf(spec), DIRECTIVE, ACCOUNT_DIRECTIVE);
  const name = jobName(spec.name);
  const header = [
    `#SBATCH --job-name=${name}`,
    `#SBATCH --time=${wallMinutes(spec.wallTimeS)}`,
    `#SBATCH --chdir=${spec.workDir}`,
    `#SBATCH --output=${paths.logDir}/${name}-%j.out`,
    `#SBATCH --error=${paths.logDir}/${name}-%j.err`,
    ...(spec.cpus ? [`#SBATCH --cpus-per-task=${spec.cpus}`] : []),
    ...(spec.memGb ? [`#SBATCH --mem=${Math.ceil(spec.memGb * 1024)}M`] : []),
    ...(spec.partition ? [`#SBATCH --partition=${spec.partition}`] : []),
    ...(spec.gpus ? [`#SBATCH --gres=gpu:${spec.gpus}`] : []),
  ];
  const exitWord = `${shellQuote(paths.stateDir)}/"$SLURM_JOB_ID".exit`;
  // The user's directives first: where both set something, ours (later) win.
  return ['#!/bin/bash', ...directives, ...header, wrapperScript(body, exitWord, spec.env)].join('\n');
}

/**
 * Values written into directive lines must stay on their line and be one option: a line break
 * would end the header and run the rest as shell, a space would add options.
 */
export function checkHeaderValues(spec: JobSpec, paths: BatchPaths): void {
  if (spec.partition !== undefined && !/^[\w.,+-]+$/.test(spec.partition)) {
    throw new InputError(`partition '${printable(spec.partition)}' is not a partition name`, 'give a name such as debug (letters, digits, _ . , + -)');
  }
  for (const [label, value] of [['work directory', spec.workDir], ['log directory', paths.logDir], ['state directory', paths.stateDir]] as const) {
    if (/[\s\p{Cc}]/u.test(value)) throw new InputError(`${label} '${printable(value)}' contains whitespace or a control character`, 'use a path without spaces or line breaks');
  }
}

/** The log file names Slurm will use for job `id`, as batchScript asked for them. */
export function logPaths(spec: JobSpec, logDir: string, id: string): { stdoutPath: string; stderrPath: string } {
  const name = jobName(spec.name);
  return { stdoutPath: `${logDir}/${name}-${id}.out`, stderrPath: `${logDir}/${name}-${id}.err` };
}

/** Slurm enforces limits in whole minutes: round up, at least one. */
export function wallMinutes(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

export function jobName(name: string): string {
  return name.replace(/[^\w.-]/g, '_').slice(0, 64) || 'svc-job';
}

/** The user's leading directive lines (account lines dropped) and the rest, shebang removed. */
export function splitDirectives(script: string, directive: RegExp, account: RegExp): { directives: string[]; body: string } {
  const lines = script.split('\n');
  if (lines[0]?.startsWith('#!')) lines.shift();
  const directives: string[] = [];
  const body: string[] = [];
  for (const line of lines) {
    if (account.test(line)) continue;
    if (directive.test(line) && body.every((l) => l.trim() === '' || l.trimStart().startsWith('#'))) directives.push(line.trim());
    else body.push(line);
  }
  return { directives, body: body.join('\n') };
}
