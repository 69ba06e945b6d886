import { rmSync } from 'node:fs';
import { writeJsonAtomic } from '../core/atomic.ts';
import { readJsonObject } from '../core/json-object.ts';
import { SvcError } from '../core/errors.ts';
import type { Env } from '../core/config/env-vars.ts';
import { ALLOCATION_SLACK_S } from './node-resources.ts';
import { jobName, wallMinutes } from './slurm-script.ts';
import { type CommandRunner, systemRunner } from './slurm-runner.ts';
import { mapSlurmState, slurmSeconds } from './slurm-state.ts';

export type AllocationOptions = {
  /** the scheduler partition; the cluster's default when null */
  partition: string | null;
  cpus: number | null;
  /** memory, GB; the partition's default when null or absent */
  memGb?: number | null;
  /** GPUs (`--gres=gpu:N`); none when 0 or absent */
  gpus?: number;
  /** the node's time budget (SVC_TIMEOUT_NODE): the allocation's wall time is that and a minute */
  budgetS: number;
  env: Env;
  /** the file the held allocations are kept in (in the checkpoint), so a run killed outright leaves them findable */
  record: string;
  runner?: CommandRunner;
  /** first interval of the shared poll while allocations wait to start */
  pollMs?: number;
};

type Waiter = { resolve: (nodes: string) => void; reject: (err: Error) => void };

/** A node's allocation once it runs: its job id, the compute node(s) it runs on, and whether the run before held it. */
export type Allocation = { jobId: string; nodes: string; kept?: true };

/** Time beyond the node's budget a kept allocation must still have. */
const KEEP_MARGIN_S = 10;

/** Reasons a pending job gives that no wait ends: it asks more than its partition has, or of an account or QOS it may not use. */
const NEVER_STARTS = /^(PartitionConfig|PartitionNodeLimit|PartitionTimeLimit|BadConstraints|InvalidAccount|InvalidQOS|AccountNotAllowed)$/;

/**
 * The Slurm allocations a run's nodes hold: one holder job per node for the node's lifetime (its
 * cpus, partition and wall time), each command of the node a step in it (`srun --jobid --overlap`),
 * so a command starts at once and the resources are asked for once. Allocations waiting to start
 * are watched together, one `squeue` a poll. Every allocation is cancelled when its node ends, and
 * all that remain when the run ends: none outlives its node.
 */
export class NodeAllocations {
  private readonly held = new Map<string, string>();
  private readonly waiting = new Map<string, Waiter>();
  private polling = false;
  private readonly run: CommandRunner;

  constructor(private readonly opts: AllocationOptions) {
    this.run = opts.runner ?? systemRunner(opts.env);
  }

  /** The node's allocation, once it runs; a refused or failed one throws. */
  async open(nodeId: string, signal: AbortSignal): Promise<Allocation> {
    const kept = this.held.get(nodeId);
    if (kept !== undefined) {
      try {
        return { jobId: kept, nodes: await this.started(kept, signal), kept: true };
      } catch (err) {
        // it ended while the run was away: the node gets a new one, unless the run is stopping
        await this.close(nodeId);
        if (signal.aborted) throw err;
      }
    }
    const args = ['sbatch', '--parsable', `--job-name=${jobName(`svc-${nodeId}`)}`, `--time=${wallMinutes(this.opts.budgetS + ALLOCATION_SLACK_S)}`, '--output=/dev/null', '--wrap=sleep 2147483647'];
    if (this.opts.partition) args.push(`--partition=${this.opts.partition}`);
    if (this.opts.cpus) args.push(`--cpus-per-task=${this.opts.cpus}`);
    if (this.opts.memGb) args.push(`--mem=${Math.ceil(this.opts.memGb * 1024)}M`);
    if (this.opts.gpus) args.push(`--gres=gpu:${this.opts.gpus}`);
    const res = await this.run(args);
    const id = res.stdout.trim().split(';')[0] ?? '';
    if (res.code !== 0 || !/^\d+$/.test(id)) throw new SvcError(`sbatch refused the allocation of node ${nodeId}: ${(res.stderr || res.stdout).trim().split('\n')[0]}`);
    this.held.set(nodeId, id);
    this.save();
    try {
      return { jobId: id, nodes: await this.started(id, signal) };
    } catch (err) {
      await this.close(nodeId);
      throw err;
    }
  }

  /** Cancels the node's allocation, and every step in it; `first`, a last step, runs before (the node's leftovers to remove). */
  async close(nodeId: string, first: string[] | null = null): Promise<void> {
    const id = this.held.get(nodeId);
    if (id === undefined) return;
    if (first) await this.run(first).catch(() => null);
    this.held.delete(nodeId);
    await this.run(['scancel', id]);
    this.save();
  }

  /** Cancels every allocation still held: the run is ending. */
  async closeAll(): Promise<void> {
    const ids = [...this.held.values()];
    this.held.clear();
    if (ids.length > 0) await this.run(['scancel', ...ids]);
    this.save();
  }

  /**
   * Takes over the allocations a run killed outright left in the record. A node this run continues
   * keeps its own while it is queued (keeping its place in the queue) or running with the node's
   * whole time budget still left; the steps the killed run left in it are cancelled. Every other
   * one is cancelled now. A scheduler that cannot be asked leaves them to their wall time.
   */
  async takeOver(continues: (nodeId: string) => boolean): Promise<{ kept: string[]; cancelled: string[] }> {
    const left = readRecord(this.opts.record);
    if (left.length === 0) return { kept: [], cancelled: [] };
    const ids = left.map(([, id]) => id);
    const q = await this.run(['squeue', '-h', '-t', 'all', '-o', '%i|%T|%l|%M', '-j', ids.join(',')]).catch(() => null);
    const rows = new Map((q?.stdout ?? '').split('\n').map((l) => l.trim().split('|')).map(([id = '', ...rest]) => [id, rest] as const));
    const kept: string[] = [];
    const cancelled: string[] = [];
    for (const [nodeId, id] of left) {
      const [raw = '', limit = '', used = ''] = rows.get(id) ?? [];
      const state = mapSlurmState(raw).state;
      const timeLeft = (slurmSeconds(limit) ?? 0) - (slurmSeconds(used) ?? Number.POSITIVE_INFINITY);
      if ((state === 'PENDING' || state === 'RUNNING') && continues(nodeId) && timeLeft >= this.opts.budgetS + KEEP_MARGIN_S) {
        this.held.set(nodeId, id);
        kept.push(id);
      } else cancelled.push(id);
    }
    const steps = kept.length > 0 ? await this.run(['squeue', '-s', '-h', '-o', '%i', '-j', kept.join(',')]).catch(() => null) : null;
    const orphanSteps = (steps?.stdout ?? '').split('\n').map((l) => l.trim()).filter((s) => /^\d+\.\d+$/.test(s));
    const gone = [...cancelled, ...orphanSteps];
    if (gone.length > 0) await this.run(['scancel', ...gone]).catch(() => null);
    this.save();
    return { kept, cancelled };
  }

  private save(): void {
    if (this.held.size === 0) rmSync(this.opts.record, { force: true });
    else writeJsonAtomic(this.opts.record, Object.fromEntries(this.held));
  }

  /** Resolves with its node list when the allocation runs; one squeue a poll serves every allocation waiting. */
  private started(id: string, signal: AbortSignal): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(id);
        reject(signal.reason instanceof Error ? signal.reason : new SvcError('stopped while the allocation waited to start'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      const done = () => signal.removeEventListener('abort', onAbort);
      this.waiting.set(id, { resolve: (nodes) => (done(), resolve(nodes)), reject: (err) => (done(), reject(err)) });
      void this.poll();
    });
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      // an idle cluster starts a job within a tenth of a second: look often at first, then less
      for (let wait = this.opts.pollMs ?? 50; this.waiting.size > 0; wait = Math.min(wait * 1.5, 5000)) {
        const ids = [...this.waiting.keys()];
        const q = await this.run(['squeue', '-h', '-t', 'all', '-o', '%i|%T|%r|%N', '-j', ids.join(',')]);
        for (const line of q.stdout.split('\n')) {
          const [id = '', raw = '', reason = '', nodes = ''] = line.trim().split('|');
          const w = this.waiting.get(id);
          if (!w) continue;
          const s = mapSlurmState(raw);
          if (s.state === 'RUNNING') {
            this.waiting.delete(id);
            w.resolve(nodes);
          } else if (s.state !== 'PENDING') {
            this.waiting.delete(id);
            w.reject(new SvcError(`the allocation ${id} ended before it ran (${raw})`));
          } else if (NEVER_STARTS.test(reason)) {
            this.waiting.delete(id);
            w.reject(new SvcError(`the allocation ${id} can never start: Slurm holds it for ${reason}`, 'ask for what the partition has: SVC_SLURM_CPUS, SVC_SLURM_WALLTIME or SVC_SLURM_PARTITION'));
          }
        }
        if (this.waiting.size > 0) await Bun.sleep(wait);
      }
    } finally {
      this.polling = false;
    }
  }
}

/** The node ids and job ids a record holds; a damaged record holds none (its jobs end at their wall time). */
function readRecord(file: string): [string, string][] {
  try {
    return Object.entries(readJsonObject(file) ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string' && /^\d+$/.test(e[1]));
  } catch {
    return [];
  }
}
