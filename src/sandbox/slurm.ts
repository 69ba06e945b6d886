/**
 * Jobs on a Slurm cluster. Submit with `sbatch --parsable`; ask for the state of all our jobs in
 * ONE `squeue` call per poll (finished jobs stay listed for MinJobAge); jobs it no longer lists
 * come from `sacct` when the cluster keeps accounting, else `scontrol show job`, else the exit
 * file. Every wait shares one poll loop, so a hundred waiting jobs still cost one query per interval.
 */
import { SvcError } from '../core/errors.ts';
import { BatchExecutor, firstLine, type SchedulerCli, type SchedulerOptions } from './batch-executor.ts';
import type { CommandRunner } from './slurm-runner.ts';
import { systemRunner } from './slurm-runner.ts';
import { batchScript, logPaths } from './slurm-script.ts';
import type { SchedulerState } from './slurm-state.ts';
import { mapSlurmState, parsePipeTable, parseScontrolState } from './slurm-state.ts';

export class SlurmExecutor extends BatchExecutor {
  constructor(opts: SchedulerOptions) {
    super(slurmCli(), { ...opts, runner: opts.runner ?? systemRunner() });
  }

  /** Slurm reports a cancelled job CANCELLED itself: no marker is left. */
  override async cancel(id: string): Promise<void> {
    this.index.get('slurm', id);
    const res = await this.opts.runner(this.cli.cancelArgv(id));
    if (res.code !== 0) throw new SvcError(`scancel ${id} failed: ${firstLine(res.stderr)}`);
  }
}

function slurmCli(): SchedulerCli {
  let hasSacct: boolean | undefined;
  /** sacct is installed on most clusters but answers only when accounting storage is configured. */
  const sacctWorks = async (run: CommandRunner) => {
    hasSacct ??= Bun.which('sacct') ? (await run(['sacct', '-n', '-X', '-j', '1'])).code === 0 : false;
    return hasSacct;
  };
  return {
    kind: 'slurm',
    ext: 'sbatch',
    script: batchScript,
    // on the command line the comment wins over one among the script's own lines, whatever its text
    submit: (path, spec) => ({ argv: ['sbatch', '--parsable', ...(spec.comment ? [`--comment=${spec.comment}`] : []), path], stdin: false }),
    parseSubmit: (stdout) => {
      const id = stdout.trim().split(';')[0] ?? '';
      return /^\d+$/.test(id) ? id : null;
    },
    /** One squeue call for all ids; only jobs it no longer lists cost more queries. */
    async query(ids, run) {
      const seen = new Map<string, SchedulerState>();
      const q = await run(['squeue', '-h', '-t', 'all', '-o', '%i|%T', '-j', ids.join(',')]);
      // squeue exits 1 with "Invalid job id" when none of the ids is known any more.
      if (q.code !== 0 && !/invalid job id/i.test(q.stderr)) throw new SvcError(`squeue failed: ${firstLine(q.stderr)}`);
      for (const [id, raw] of parsePipeTable(q.stdout)) if (ids.includes(id)) seen.set(id, mapSlurmState(raw));
      const missing = ids.filter((id) => !seen.has(id));
      if (missing.length === 0) return seen;
      if (await sacctWorks(run)) {
        const a = await run(['sacct', '-n', '-X', '-P', '-o', 'JobIDRaw,State', '-j', missing.join(',')]);
        for (const [id, raw] of parsePipeTable(a.stdout)) if (missing.includes(id)) seen.set(id, mapSlurmState(raw));
        return seen;
      }
      for (const id of missing) {
        const s = await run(['scontrol', 'show', 'job', id]);
        const raw = s.code === 0 ? parseScontrolState(s.stdout) : null;
        if (raw) seen.set(id, mapSlurmState(raw));
      }
      return seen;
    },
    cancelArgv: (id) => ['scancel', id],
    logPaths,
  };
}
