import { ConflictError, NotFoundError } from '../core/errors.ts';
import type { RunChild } from './spawn-run.ts';

/** How long a run has to stop its nodes after SIGTERM before its process group is killed. */
export const STOP_GRACE_MS = 10_000;

export type StopResult = { ok: true; pid: number; pgid: number; checkpoint_path: string; signal: 'SIGTERM' | 'SIGKILL'; exit_code: number | null };

/**
 * The run processes one launcher (a dashboard, an orchestrator) started. Only these are ever
 * signalled: a PID read from a checkpoint file may by now be anyone's process.
 */
export class RunSupervisor {
  private readonly runs: RunChild[] = [];
  private starting = false;

  track(child: RunChild): RunChild {
    this.runs.push(child);
    return child;
  }

  /** The latest run started for `checkpoint`, running or ended. */
  forCheckpoint(checkpoint: string | null): RunChild | undefined {
    return checkpoint === null ? undefined : this.runs.findLast((r) => r.checkpoint === checkpoint);
  }

  /** Every run started here that is still running. */
  running(): RunChild[] {
    return this.runs.filter((r) => r.running);
  }

  /** The latest launch or resume still running (sub-experiments run beside it). */
  activeRun(): RunChild | undefined {
    return this.runs.findLast((r) => r.running && r.kind !== 'sub-experiment');
  }

  /** Refuses to start a second run while one this launcher started is still going, or still being started. */
  refuseWhileRunning(): void {
    if (this.starting) throw new ConflictError('a run is being started here right now', 'wait a moment, then look at /state');
    const r = this.activeRun();
    if (r) throw new ConflictError(`a run started here is still running (pid ${r.pid}, ${r.checkpoint})`, 'stop it with POST /api/stop, or wait until it ends');
  }

  /**
   * Starts a launch or resume unless one started here runs or is being started. The check and the
   * start are one step: two requests arriving together cannot both pass the check while the first
   * is still creating its checkpoint.
   */
  async startAlone<T>(start: () => Promise<T>): Promise<T> {
    this.refuseWhileRunning();
    this.starting = true;
    try {
      return await start();
    } finally {
      this.starting = false;
    }
  }

  /**
   * Stops the run started here: the one of `preferred` (the selected checkpoint) when it runs,
   * else the latest running one. SIGTERM to its process group lets it stop its nodes; what is
   * left of the group after `graceMs` gets SIGKILL.
   */
  async stop(preferred: string | null, graceMs = STOP_GRACE_MS): Promise<StopResult> {
    const own = this.forCheckpoint(preferred);
    const target = own?.running ? own : this.activeRun();
    if (!target) {
      const last = own ?? this.runs.at(-1);
      if (!last) throw new NotFoundError('no run was started by this dashboard', 'runs started elsewhere (svc run in a terminal) are stopped there');
      throw new ConflictError(`the run started here has already ended (pid ${last.pid}, exit code ${last.exitCode})`, 'nothing to stop');
    }
    signalGroup(target.pgid, 'SIGTERM');
    let signal: StopResult['signal'] = 'SIGTERM';
    if (!(await groupGone(target, graceMs))) {
      signalGroup(target.pgid, 'SIGKILL');
      signal = 'SIGKILL';
      await groupGone(target, graceMs);
    }
    await target.exited;
    return { ok: true, pid: target.pid, pgid: target.pgid, checkpoint_path: target.checkpoint, signal, exit_code: target.exitCode };
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (err) {
    // the group ended on its own in the meantime
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

/** True once the leader has been reaped and no process of its group is left, within `ms`. */
async function groupGone(run: RunChild, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (!run.running && !groupExists(run.pgid)) return true;
    if (Date.now() >= until) return false;
    await Bun.sleep(50);
  }
}

function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
