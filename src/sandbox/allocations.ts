import { rmSync } from 'node:fs';
import { writeJsonAtomic } from '../core/atomic.ts';
import { readJsonObject } from '../core/json-object.ts';
import { SvcError } from '../core/errors.ts';
import { isMapping } from '../core/values.ts';
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
  /**
   * A last step that removes what the node's commands left in the allocation (their containers live
   * in a daemon, outside the steps cancelling ends), run before it is cancelled; none without one.
   */
  sweep?: (jobId: string) => string[] | null;
};

type Waiter = { resolve: (nodes: string) => void; reject: (err: Error) => void };

/** A node's allocation once it runs: its job id, the compute node(s) it runs on, and whether the run before held it. */
export type Allocation = { jobId: string; nodes: string; kept?: true };

/** Time beyond the node's budget a kept allocation must still have. */
const KEEP_MARGIN_S = 10;
/** Longest wait for a sweep step: one that cannot start (its node gone) must not hold the node's end. */
const SWEEP_TIMEOUT_S = 30;

/** Reasons a pending job gives that no wait ends: it asks more than its partition has, or of an account or QOS it may not use. */
const NEVER_STARTS = /^(PartitionConfig|PartitionNodeLimit|PartitionTimeLimit|BadConstraints|InvalidAccount|InvalidQOS|AccountNotAllowed|QOSMax\w*PerJob\w*|AssocMax\w*PerJob\w*|MaxWallDurationPerJob\w*)$/;

/**
 * The Slurm allocations a run's nodes hold: one holder job per node for the node's lifetime (its
 * cpus, memory, GPUs, partition and wall time), each command of the node a step in it (`srun --jobid --overlap`),
 * so a command starts at once and the resources are asked for once. Allocations waiting to start
 * are watched together, one `squeue` a poll. Every allocation is cancelled when its node ends, and
 * all that remain when the run ends: none outlives its node.
 */
export class NodeAllocations {
  private readonly held = new Map<string, string>();
  /** what each allocation asked for, as the record keeps it: a resume keeps only one that asked what this run asks */
  private readonly ask: string;
  private readonly waiting = new Map<string, Waiter>();
  private polling = false;
  private readonly run: CommandRunner;

  constructor(private readonly opts: AllocationOptions) {
    this.run = opts.runner ?? systemRunner(opts.env);
    this.ask = this.request().join(' ');
  }

  /** The holder job's request, less its name and wall time. */
  private request(): string[] {
    const o = this.opts;
    return [
      ...(o.partition ? [`--partition=${o.partition}`] : []),
      ...(o.cpus ? [`--cpus-per-task=${o.cpus}`] : []),
      ...(o.memGb ? [`--mem=${Math.ceil(o.memGb * 1024)}M`] : []),
      ...(o.gpus ? [`--gres=gpu:${o.gpus}`] : []),
    ];
  }

  /** The node's allocation, once it runs; a refused or failed one throws. */
  async open(nodeId: string, signal: AbortSignal): Promise<Allocation> {
    const kept = this.held.get(nodeId);
    if (kept !== undefined) {
      try {
        // it waited while other nodes ran: it must still hold the node's whole budget
        if (!(await this.lasts([kept])).has(kept)) throw new SvcError(`the allocation ${kept} has too little time left for node ${nodeId}`);
        return { jobId: kept, nodes: await this.started(kept, signal), kept: true };
      } catch (err) {
        // it ended, or will too soon: the node gets a new one, unless the run is stopping
        await this.close(nodeId);
        if (signal.aborted) throw err;
      }
    }
    const args = ['sbatch', '--parsable', `--job-name=${jobName(`svc-${nodeId}`)}`, `--time=${wallMinutes(this.opts.budgetS + ALLOCATION_SLACK_S)}`, '--output=/dev/null', ...this.request(), '--wrap=sleep 2147483647'];
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

  /** Cancels the node's allocation, and every step in it, after the sweep. */
  async close(nodeId: string): Promise<void> {
    const id = this.held.get(nodeId);
    if (id === undefined) return;
    await this.sweep([id]);
    this.held.delete(nodeId);
    await this.run(['scancel', id]);
    this.save();
  }

  /** Cancels every allocation still held, after the sweep: the run is ending. */
  async closeAll(): Promise<void> {
    const ids = [...this.held.values()];
    await this.sweep(ids);
    this.held.clear();
    if (ids.length > 0) await this.run(['scancel', ...ids]);
    this.save();
  }

  /** The sweep step of each allocation, together, each bounded in time; a failed one leaves what it could not remove. */
  private async sweep(ids: string[]): Promise<void> {
    const steps = ids.map((id) => this.opts.sweep?.(id)).filter((s): s is string[] => Array.isArray(s));
    await Promise.all(steps.map((step) => this.run(['timeout', String(SWEEP_TIMEOUT_S), ...step]).catch(() => null)));
  }

  /** Of the allocations given, those queued or running with the node's whole budget still left. */
  private async lasts(ids: string[]): Promise<Set<string>> {
    const q = await this.run(['squeue', '-h', '-t', 'all', '-o', '%i|%T|%l|%M', '-j', ids.join(',')]).catch(() => null);
    const out = new Set<string>();
    for (const line of (q?.stdout ?? '').split('\n')) {
      const [id = '', raw = '', limit = '', used = ''] = line.trim().split('|');
      const state = mapSlurmState(raw).state;
      const timeLeft = (slurmSeconds(limit) ?? 0) - (slurmSeconds(used) ?? Number.POSITIVE_INFINITY);
      if ((state === 'PENDING' || state === 'RUNNING') && timeLeft >= this.opts.budgetS + KEEP_MARGIN_S) out.add(id);
    }
    return out;
  }

  /**
   * Takes over the allocations a run killed outright left in the record. A node this run continues
   * keeps its own while it is queued (keeping its place in the queue) or running with the node's
   * whole time budget still left, if it asked what this run asks; what the killed run's commands
   * left in it (steps, containers) is removed. Every other one is swept and cancelled now. A
   * scheduler that cannot be asked leaves them to their wall time.
   */
  async takeOver(continues: (nodeId: string) => boolean): Promise<{ kept: string[]; cancelled: string[] }> {
    const left = readRecord(this.opts.record);
    if (left.length === 0) return { kept: [], cancelled: [] };
    const lasting = await this.lasts(left.map((l) => l.job));
    const kept: string[] = [];
    const cancelled: string[] = [];
    for (const { node, job, ask } of left) {
      if (lasting.has(job) && ask === this.ask && continues(node)) {
        this.held.set(node, job);
        kept.push(job);
      } else cancelled.push(job);
    }
    await this.sweep(left.map((l) => l.job));
    const steps = kept.length > 0 ? await this.run(['squeue', '-s', '-h', '-o', '%i', '-j', kept.join(',')]).catch(() => null) : null;
    const orphanSteps = (steps?.stdout ?? '').split('\n').map((l) => l.trim()).filter((s) => /^\d+\.\d+$/.test(s));
    const gone = [...cancelled, ...orphanSteps];
    if (gone.length > 0) await this.run(['scancel', ...gone]).catch(() => null);
    this.save();
    return { kept, cancelled };
  }

  private save(): void {
    if (this.held.size === 0) rmSync(this.opts.record, { force: true });
    else writeJsonAtomic(this.opts.record, Object.fromEntries([...this.held].map(([node, job]) => [node, { job, ask: this.ask }])));
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
            w.reject(new SvcError(`the allocation ${id} can never start: Slurm holds it for ${reason}`, 'ask for what the partition and your account allow: SVC_SLURM_CPUS, slurm_memory_gb, SVC_SLURM_GPUS, SVC_TIMEOUT_NODE or SVC_SLURM_PARTITION'));
          }
        }
        if (this.waiting.size > 0) await Bun.sleep(wait);
      }
    } finally {
      this.polling = false;
    }
  }
}

/** An allocation as the record keeps it: its node, job id and what it asked for. */
type Recorded = { node: string; job: string; ask: string };

/** The allocations a record holds; a damaged record holds none (its jobs end at their wall time). */
function readRecord(file: string): Recorded[] {
  let record: Record<string, unknown> | null;
  try {
    record = readJsonObject(file);
  } catch {
    return [];
  }
  return Object.entries(record ?? {}).flatMap(([node, v]): Recorded[] => {
    const job = isMapping(v) ? v.job : v;
    if (typeof job !== 'string' || !/^\d+$/.test(job)) return [];
    return [{ node, job, ask: isMapping(v) && typeof v.ask === 'string' ? v.ask : '' }];
  });
}
