import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPid } from '../../../../src/core/checkpoint/pid.ts';
import { listCheckpointIndex } from '../../../../src/core/checkpoint/index.ts';
import { checkpointStatus } from '../../../../src/core/checkpoint/status.ts';
import { summarizeCheckpoint } from '../../../../src/core/checkpoint/summary.ts';
import { writeCheckpoint } from '../../../support/checkpoint.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

/** A PID that is certainly not running: a child that has exited. */
async function deadPid(): Promise<number> {
  const p = Bun.spawn(['true']);
  await p.exited;
  return p.pid;
}

describe('checkpoint status', () => {
  test('running while .svc_pid names a live process', () => {
    const ck = writeCheckpoint(dir, { pid: process.pid });
    expect(summarizeCheckpoint(ck)).toMatchObject({ status: 'running', pid: process.pid });
  });

  test('done when the recorded process is gone', async () => {
    const ck = writeCheckpoint(dir, { pid: await deadPid() });
    expect(summarizeCheckpoint(ck)).toMatchObject({ status: 'done', pid: null });
  });

  test('failed or stopped when the tree records it; stopped when nodes were left running', async () => {
    const failed = writeCheckpoint(dir, { runId: 'a', extra: { status: 'failed' } });
    expect(summarizeCheckpoint(failed).status).toBe('failed');
    const stopped = writeCheckpoint(dir, { runId: 'b', extra: { status: 'stopped' } });
    expect(summarizeCheckpoint(stopped).status).toBe('stopped');
    const interrupted = writeCheckpoint(dir, { runId: 'c', pid: await deadPid() });
    const tree = JSON.parse(await Bun.file(join(interrupted, 'tree.json')).text());
    tree.nodes[1].status = 'running';
    writeFileSync(join(interrupted, 'tree.json'), JSON.stringify(tree));
    expect(summarizeCheckpoint(interrupted).status).toBe('stopped');
  });

  test("stopped when svc's search state has no end, every node finished; done once it records its end", async () => {
    const state = { frontier: [], expansions: {}, label_history: [], lineage: { fired: 0 } };
    const cut = writeCheckpoint(dir, { runId: '20261101120000_cut', pid: await deadPid(), extra: { search_state: state } });
    expect(summarizeCheckpoint(cut).status).toBe('stopped');
    expect(listCheckpointIndex(dir).find((c) => c.path === cut)?.status).toBe('stopped');
    const ended = writeCheckpoint(dir, { runId: '20261101120001_ended', pid: await deadPid(), extra: { search_state: { ...state, ended: 'done' } } });
    expect(summarizeCheckpoint(ended).status).toBe('done');
    expect(listCheckpointIndex(dir).find((c) => c.path === ended)?.status).toBe('done');
  });

  test('new when there is no tree yet', () => {
    expect(checkpointStatus(dir, null).status).toBe('new');
  });

  test('the reference pid file counts; junk in it does not', () => {
    writeFileSync(join(dir, '.ari_pid'), ` ${process.pid}\n`);
    expect(readPid(dir)).toBe(process.pid);
    for (const junk of ['', 'abc', '-5', '0']) {
      writeFileSync(join(dir, '.svc_pid'), junk);
      expect(readPid(dir)).toBeNull();
    }
  });
});

describe('summarizeCheckpoint', () => {
  test('counts, best node with the primary metric, cost, goal', () => {
    const ck = writeCheckpoint(dir, { nodes: 15 });
    const s = summarizeCheckpoint(ck);
    expect(s.nodes).toEqual({ total: 15, pending: 0, running: 0, success: 13, failed: 2, other: 0 });
    expect(s.best).toEqual({ id: 'node_0000000e', score: 0.9, label: 'improve', metric: 'throughput', value: 114 });
    expect(s.cost).toEqual({ usd: 1.25, tokens: 5000, calls: 12 });
    expect(s.goal).toBe('Maximise throughput of the generated kernel.');
    expect(s.problems).toEqual([]);
  });

  test('cost falls back to cost_trace.jsonl and survives a cut-off last line', () => {
    const ck = writeCheckpoint(dir);
    Bun.spawnSync(['rm', join(ck, 'cost_summary.json')]);
    writeFileSync(join(ck, 'cost_trace.jsonl'), '{"estimated_cost_usd": 0.5, "total_tokens": 100}\n{"estimated_cost_usd": 0.25, "total_tokens": 50}\n{"estimated_co');
    expect(summarizeCheckpoint(ck).cost).toEqual({ usd: 0.75, tokens: 150, calls: 2 });
  });

  test('a malformed side file is a problem named by path, not a crash', () => {
    const ck = writeCheckpoint(dir);
    writeFileSync(join(ck, 'review_report.json'), '{"overall_score": 7');
    const s = summarizeCheckpoint(ck);
    expect(s.review_score).toBeNull();
    expect(s.problems).toEqual([expect.stringContaining(`${join(ck, 'review_report.json')}: is not valid JSON`)]);
  });

  test('review score from overall_score, then score', () => {
    const ck = writeCheckpoint(dir);
    writeFileSync(join(ck, 'review_report.json'), '{"score": 6.5}');
    expect(summarizeCheckpoint(ck).review_score).toBe(6.5);
  });
});

describe('the claim gate in the summary', () => {
  const write = (ck: string, phase: 'draft' | 'final', fields: Record<string, unknown> = {}) => {
    mkdirSync(join(ck, 'evaluation'), { recursive: true });
    const report = {
      gate: 'claim_evidence_hard_gate',
      phase,
      policy: { mode: 'warn', numeric_match: { default_tolerance: { absolute: 0, relative: 0.01 } } },
      status: 'warn',
      should_block: false,
      errors: [],
      warnings: [{ type: 'no_claims', message: 'no numeric claim and no required evidence to check' }],
      metrics: { total_claims: 0, grounded_claims: 0 },
      ...fields,
    };
    writeFileSync(join(ck, 'evaluation', `claim_evidence_hard_gate_${phase}.json`), JSON.stringify(report));
  };

  test('the final report wins over the draft, its findings as counts', () => {
    const ck = writeCheckpoint(dir);
    write(ck, 'draft', { status: 'fail', errors: [{ type: 'numeric_mismatch' }] });
    write(ck, 'final', { policy: { mode: 'strict' }, status: 'fail', should_block: true, errors: [{ type: 'numeric_mismatch' }, { type: 'missing_evidence' }], warnings: [] });
    const s = summarizeCheckpoint(ck);
    expect(s.claim_gate).toEqual({ phase: 'final', status: 'fail', mode: 'strict', should_block: true, errors: 2, warnings: 0 });
    expect(s.problems).toEqual([]);
  });

  test('the draft report alone', () => {
    const ck = writeCheckpoint(dir);
    write(ck, 'draft');
    expect(summarizeCheckpoint(ck).claim_gate).toEqual({ phase: 'draft', status: 'warn', mode: 'warn', should_block: false, errors: 0, warnings: 1 });
  });

  test('no report: null, and no problem', () => {
    const ck = writeCheckpoint(dir);
    const s = summarizeCheckpoint(ck);
    expect(s.claim_gate).toBeNull();
    expect(s.problems).toEqual([]);
  });

  test('a damaged final report is a problem and null, not the draft it replaced', () => {
    const ck = writeCheckpoint(dir);
    write(ck, 'draft');
    write(ck, 'final');
    const file = join(ck, 'evaluation', 'claim_evidence_hard_gate_final.json');
    writeFileSync(file, '{"gate": "claim_evidence_hard_gate", "phase": "fin');
    const s = summarizeCheckpoint(ck);
    expect(s.claim_gate).toBeNull();
    expect(s.problems).toEqual([expect.stringContaining(`${file}: is not valid JSON`)]);
    // JSON of another shape is named too
    writeFileSync(file, JSON.stringify({ phase: 'final', status: 'maybe' }));
    const odd = summarizeCheckpoint(ck);
    expect(odd.claim_gate).toBeNull();
    expect(odd.problems).toEqual([expect.stringMatching(new RegExp(`^${file.replace(/[.]/g, '\\.')}: `))]);
  });
});

describe('the reproduction in the summary', () => {
  const report = { ors_score: 0.875, raw_score: 0.9, n_runs: 3, spread: 0.04, degraded: false, negative_control: { empty: 0, boilerplate: 0.05, passed: true }, leaves_total: 11 };

  test("the graded reproduction's score, runs, spread and negative controls", () => {
    const ck = writeCheckpoint(dir);
    writeFileSync(join(ck, 'reproducibility_report.json'), JSON.stringify(report));
    const s = summarizeCheckpoint(ck);
    expect(s.reproduction).toEqual({ ors_score: 0.875, n_runs: 3, spread: 0.04, degraded: false, degraded_reason: null, negative_control_passed: true, run_timed_out: false });
    expect(s.problems).toEqual([]);
  });

  test("a legacy run's text report under the same name: no graded reproduction, and no problem", () => {
    const ck = writeCheckpoint(dir);
    writeFileSync(join(ck, 'reproducibility_report.json'), 'Reproduced 3 of 4 claims.\n');
    const s = summarizeCheckpoint(ck);
    expect(s.reproduction).toBeNull();
    expect(s.problems).toEqual([]);
  });

  test('none: null; a damaged or out-of-range report: a problem and null, never a score', () => {
    const ck = writeCheckpoint(dir);
    expect(summarizeCheckpoint(ck).reproduction).toBeNull();
    const file = join(ck, 'reproducibility_report.json');
    writeFileSync(file, '{"ors_score": 0.8');
    const damaged = summarizeCheckpoint(ck);
    expect(damaged.reproduction).toBeNull();
    expect(damaged.problems).toEqual([expect.stringContaining(`${file}: is not valid JSON`)]);
    writeFileSync(file, JSON.stringify({ ...report, ors_score: 1.7 }));
    const odd = summarizeCheckpoint(ck);
    expect(odd.reproduction).toBeNull();
    expect(odd.problems).toHaveLength(1);
  });
});
