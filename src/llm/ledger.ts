import { appendFileSync, mkdirSync } from 'node:fs';
import { writeFileAtomic } from '../core/atomic.ts';
import { diskError } from '../core/errors.ts';
import { logFor } from '../core/log.ts';
import { statOrNull } from '../core/paths.ts';
import { checkpointFile } from './checkpoint-file.ts';
import { BudgetExceededError } from './errors.ts';
import type { Price, PriceSource } from './prices.ts';
import { type CostSummary, TraceTally } from './trace-tally.ts';
import type { CallMeta, Usage } from './types.ts';

/** One line of cost_trace.jsonl: the reference implementation's record, plus where the price came from. */
export type CostRecord = {
  timestamp: string;
  node_id: string | null;
  phase: string | null;
  skill: string | null;
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  estimated_cost_usd: number;
  component: string;
  op: string;
  backend: string;
  embedding_tokens: number;
  latency_ms: number;
  price_source: PriceSource;
};

const TRACE_FILE = 'cost_trace.jsonl';
const SUMMARY_FILE = 'cost_summary.json';
/** At most one summary write per ledger in this span: answers that come in a burst (concurrent grading, say) share one. */
const SUMMARY_EVERY_MS = 200;

const log = logFor('ledger');
/** Ledgers with answers their summary does not count yet; written when the span ends, or at exit. */
const unwritten = new Set<CostLedger>();
let flushAtExit = false;

/** Write every summary this process still owes; runs at exit, so cost_summary.json never stays behind the trace of a finished process. */
export function flushCostSummaries(): void {
  for (const ledger of [...unwritten]) ledger.flushSummary();
}

/**
 * The cost ledger of a run: every call appended to `<checkpoint>/cost_trace.jsonl`, and
 * cost_summary.json rewritten from the whole trace, other processes' lines included. Without a
 * checkpoint the totals live in memory, so SVC_BUDGET_USD still bounds one process's calls.
 *
 * The summary is derived from the trace, which every writer's next write and every reader can
 * count again, so it is kept cheap: replaced by a rename without fsync, and at most once per
 * SUMMARY_EVERY_MS (the first answer of a burst at once, the rest when the span ends or the
 * process exits). The budget is checked against the trace, never against the summary.
 */
export class CostLedger {
  private readonly tally: TraceTally;
  private readonly trace: string | null;
  private readonly summaryPath: string | null;
  private lastWrite = Number.NEGATIVE_INFINITY;
  private pending: ReturnType<typeof setTimeout> | null = null;

  constructor(
    checkpointDir: string | null,
    private readonly budgetUsd: number | null,
  ) {
    if (checkpointDir) mkdirSync(checkpointDir, { recursive: true });
    this.trace = checkpointDir ? checkpointFile(checkpointDir, TRACE_FILE) : null;
    this.summaryPath = checkpointDir ? checkpointFile(checkpointDir, SUMMARY_FILE) : null;
    this.tally = new TraceTally(this.trace);
    this.tally.catchUp();
  }

  summary(): CostSummary {
    this.tally.catchUp();
    return this.tally.summary();
  }

  /** Refuses a new call once the spend, every writer's included, has reached the budget. */
  checkBudget(): void {
    if (this.budgetUsd === null) return;
    this.tally.catchUp();
    if (this.tally.spentUsd >= this.budgetUsd) throw new BudgetExceededError(this.tally.spentUsd, this.budgetUsd, this.trace ? `spend counted from ${this.trace}` : 'spend of this process');
  }

  append(record: CostRecord): void {
    if (!this.trace) {
      this.tally.add(record);
      return;
    }
    // one write with O_APPEND: lines of several processes never interleave
    try {
      appendFileSync(this.trace, `${JSON.stringify(record)}\n`);
    } catch (err) {
      throw diskError(err, this.trace);
    }
    if (this.pending) return;
    const wait = this.lastWrite + SUMMARY_EVERY_MS - performance.now();
    if (wait <= 0) return this.writeSummary();
    unwritten.add(this);
    if (!flushAtExit) {
      flushAtExit = true;
      process.on('exit', flushCostSummaries);
    }
    this.pending = setTimeout(() => {
      try {
        this.flushSummary();
      } catch (err) {
        // the trace holds the answers; the summary is written again with the next one
        log.warn(`${this.summaryPath} not updated: ${(err as Error).message}`);
      }
    }, wait);
    // a pending summary never keeps a finished process alive: the exit hook writes it
    this.pending.unref?.();
  }

  /** Writes the summary now if answers wait for it. */
  flushSummary(): void {
    if (!this.pending) return;
    clearTimeout(this.pending);
    this.pending = null;
    unwritten.delete(this);
    this.writeSummary();
  }

  private writeSummary(): void {
    if (!this.trace || !this.summaryPath) return;
    // a writer that read before another's append rewrites the summary; the other writes after its own append
    for (let round = 0; round < 3; round++) {
      const seen = this.tally.catchUp();
      writeFileAtomic(this.summaryPath, `${JSON.stringify(this.tally.summary(), null, 2)}\n`, 0o644, false);
      if ((statOrNull(this.trace)?.size ?? 0) === seen) break;
    }
    this.lastWrite = performance.now();
  }
}

/** The ledger line of one answered call; phase defaults to the role, node to SVC_CURRENT_NODE_ID. */
export function costRecordOf(call: { role: string; meta?: CallMeta; model: string; backend: string; usage: Usage; price: Price; latencyMs: number; nodeId?: string; embeddingTokens?: number }): CostRecord {
  const { meta = {}, usage } = call;
  return {
    timestamp: `${new Date().toISOString().slice(0, 19)}Z`,
    node_id: meta.node_id ?? call.nodeId ?? null,
    phase: meta.phase ?? (call.role === 'run' ? null : call.role),
    skill: meta.skill ?? null,
    model: call.model,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
    estimated_cost_usd: call.price.costUsd,
    component: meta.component ?? 'llm',
    op: meta.op ?? 'completion',
    backend: call.backend,
    embedding_tokens: call.embeddingTokens ?? 0,
    latency_ms: Math.round(call.latencyMs),
    price_source: call.price.source,
  };
}

