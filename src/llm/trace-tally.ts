import { statOrNull } from '../core/paths.ts';
import { parseLine } from '../core/json-object.ts';
import { readLines } from '../core/checkpoint/run-log.ts';

type Bucket = { cost_usd: number; tokens: number };

/** cost_summary.json, as the reference implementation writes it. */
export type CostSummary = {
  total_cost_usd: number;
  total_tokens: number;
  call_count: number;
  by_phase: Record<string, Bucket>;
  by_model: Record<string, Bucket>;
};

/** Lines counted per read: a long trace is read a batch at a time, not held whole. */
const BATCH = 10_000;
/** Every record starts with its timestamp: where a record glued to a torn line begins. */
const RECORD_START = '{"timestamp"';

/**
 * Running totals of a cost_trace.jsonl. Several processes append to one trace, so the totals are
 * kept by reading only the bytes appended since the last read; a line without its newline yet is
 * left for the next read, and a line that is not a record is skipped.
 */
export class TraceTally {
  private offset = 0;
  private cost = 0;
  private tokens = 0;
  private calls = 0;
  private byPhase = new Map<string, Bucket>();
  private byModel = new Map<string, Bucket>();

  constructor(readonly path: string | null) {}

  get spentUsd(): number {
    return this.cost;
  }

  /** Reads what was appended since the last call; returns the file size seen. */
  catchUp(): number {
    if (!this.path) return 0;
    const size = statOrNull(this.path)?.size ?? 0;
    if (size < this.offset) this.reset(); // the trace was replaced: count it again
    if (size === this.offset) return size;
    for (;;) {
      const { lines, end } = readLines(this.path, this.offset, BATCH, false);
      if (lines.length === 0) return size;
      for (const l of lines) this.addLine(l.text);
      this.offset = end;
    }
  }

  /** Counts one record directly (a client without a checkpoint keeps its totals in memory). */
  add(record: Record<string, unknown>): void {
    const cost = num(record.estimated_cost_usd);
    const tokens = record.total_tokens === undefined ? num(record.prompt_tokens) + num(record.completion_tokens) : num(record.total_tokens);
    this.cost += cost;
    this.tokens += tokens;
    this.calls += 1;
    bump(this.byPhase, typeof record.phase === 'string' && record.phase ? record.phase : 'unknown', cost, tokens);
    bump(this.byModel, typeof record.model === 'string' && record.model ? record.model : 'unknown', cost, tokens);
  }

  summary(): CostSummary {
    const buckets = (m: Map<string, Bucket>) => Object.fromEntries([...m].map(([k, b]) => [k, { cost_usd: round6(b.cost_usd), tokens: b.tokens }]));
    return { total_cost_usd: round6(this.cost), total_tokens: this.tokens, call_count: this.calls, by_phase: buckets(this.byPhase), by_model: buckets(this.byModel) };
  }

  private addLine(line: string): void {
    if (!line.trim()) return;
    const record = parseLine(line) ?? parseLine(line.slice(Math.max(0, line.lastIndexOf(RECORD_START))));
    if (record) this.add(record);
  }

  private reset(): void {
    this.offset = this.cost = this.tokens = this.calls = 0;
    this.byPhase = new Map();
    this.byModel = new Map();
  }
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function bump(m: Map<string, Bucket>, key: string, cost: number, tokens: number): void {
  const b = m.get(key) ?? { cost_usd: 0, tokens: 0 };
  b.cost_usd += cost;
  b.tokens += tokens;
  m.set(key, b);
}

function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
