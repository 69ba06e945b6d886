import { linkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { writeJsonAtomic } from '../core/atomic.ts';
import { readRecord } from '../core/checkpoint/records.ts';
import { InvalidRecordError } from '../core/errors.ts';

export const CONTRACT_FILE = 'metric_contract.json';

/** What make_metric_spec decides about the metric. */
export type MetricSpec = {
  metric_keyword: string;
  min_expected_metric: number;
  scoring_guide: string;
  higher_is_better: boolean;
  /** deterministic: the text named it; model: the eval model chose it for a text that did not */
  source: 'deterministic' | 'model';
  /** which part of the experiment text named the metric ('model' when the model chose) */
  keyword_found_in: string;
};

/**
 * The checkpoint's metric contract: the claim gate's fields (key, formula over measurement names,
 * ceiling, invariants, correctness check, what must be measured, claims, tolerance) and the spec.
 */
export type MetricContract = MetricSpec & {
  key: string;
  formula: string;
  ceiling_select: string | null;
  invariants: string[];
  correctness: { expr: string | null; requires: string[] };
  required_measured: string[];
  claims: { claim: string; required_evidence: string[] }[];
  correctness_required: boolean;
  ceiling_must_be_measured: boolean;
  tolerance: { absolute: number; relative: number };
  created_at: string;
};

/** A contract as read back: one minted elsewhere may carry more, and only what is used is checked. */
const StoredContract = T.Object({ required_measured: T.Optional(T.Array(T.String())) });

/** The contract for a metric measured directly: the metric is its own formula and must be measured. */
export function contractFor(spec: MetricSpec, now = new Date()): MetricContract {
  return {
    key: spec.metric_keyword,
    formula: spec.metric_keyword,
    ceiling_select: null,
    invariants: [],
    correctness: { expr: null, requires: [] },
    required_measured: [spec.metric_keyword],
    claims: [],
    correctness_required: false,
    ceiling_must_be_measured: false,
    tolerance: { absolute: 0.0, relative: 0.02 },
    ...spec,
    created_at: now.toISOString(),
  };
}

export type MintedContract = { contract: Record<string, unknown>; path: string; frozen: boolean };

/**
 * Writes the checkpoint's contract unless it has one; once written it never changes (frozen).
 * Of concurrent first calls exactly one wins: each writes its contract whole to a file of its own
 * and links it to the final name, which fails for all but the first.
 */
export function mintContract(checkpointDir: string, contract: MetricContract): MintedContract {
  const path = join(checkpointDir, CONTRACT_FILE);
  const existing = readMetricContract(checkpointDir);
  if (existing) return { contract: existing, path, frozen: true };
  const draft = join(checkpointDir, `.${CONTRACT_FILE}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.draft`);
  writeJsonAtomic(draft, contract);
  try {
    linkSync(draft, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const winner = readMetricContract(checkpointDir);
    if (winner) return { contract: winner, path, frozen: true };
    throw err;
  } finally {
    rmSync(draft, { force: true });
  }
  return { contract, path, frozen: false };
}

/** The checkpoint's contract, null when it has none; a file that is not a contract is an error naming it. */
export function readMetricContract(checkpointDir: string): (Record<string, unknown> & { required_measured?: string[] }) | null {
  const problems: string[] = [];
  const record = readRecord(checkpointDir, CONTRACT_FILE, StoredContract, problems);
  if (problems.length > 0) throw new InvalidRecordError(problems[0] ?? CONTRACT_FILE, `fix it, or delete it to mint a new contract`);
  return record;
}
