import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, NotFoundError } from '../../../../src/core/errors.ts';
import { ClaimGateBlockedError } from '../../../../src/evaluate/claim-gate/index.ts';
import { claimEvidenceHardGate } from '../../../../src/skills/evaluator/claim-gate.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { callTool } from '../coding/tool-call.ts';

let base: string;
let ckpt: string;
let experiments: string;
beforeEach(() => {
  base = tempDir();
  ckpt = join(base, 'workspace', 'checkpoints', 'run1');
  experiments = join(base, 'workspace', 'experiments', 'run1');
  mkdirSync(ckpt, { recursive: true });
  mkdirSync(join(base, 'home'));
  // node_a measured accuracy twice (mean 0.915); node_b's tree metrics say speedup 2.0
  results('node_a', { params: { lr: 0.1 }, measurements: { accuracy: [0.91, 0.92] } });
  writeFileSync(join(ckpt, 'tree.json'), JSON.stringify({ run_id: 'run1', nodes: [node('node_a', { accuracy: 0.915, _scientific_score: 0.7 }), node('node_b', { speedup: 2.0 })] }));
});
afterEach(() => removeDir(base));

function node(id: string, metrics: Record<string, unknown>) {
  return { id, parent_id: null, depth: 0, status: 'success', children: [], metrics, has_real_data: true };
}
function results(id: string, record: unknown) {
  mkdirSync(join(experiments, id), { recursive: true });
  writeFileSync(join(experiments, id, 'results.json'), typeof record === 'string' ? record : JSON.stringify(record));
}
function contract(c: Record<string, unknown>) {
  writeFileSync(join(ckpt, 'metric_contract.json'), JSON.stringify(c));
}
const env = (more: Record<string, string> = {}) => ({ HOME: join(base, 'home'), SVC_CHECKPOINT_DIR: ckpt, ...more });
const gate = (args: Record<string, unknown>, more: Record<string, string> = {}) => callTool(claimEvidenceHardGate, { checkpoint_dir: ckpt, phase: 'final', ...args }, env(more));
const reportFile = (phase: string) => join(ckpt, 'evaluation', `claim_evidence_hard_gate_${phase}.json`);
const MISMATCH = 'The speedup of 2.1x is the best we saw.';

describe('claim_evidence_hard_gate: matching', () => {
  test('claims matching the reported numbers within tolerance pass; the report is written whole', async () => {
    const r = await gate({ text: 'We reach an accuracy of 91.5% and a speedup of 2.03x over the baseline.' });
    expect(r).toMatchObject({ gate: 'claim_evidence_hard_gate', phase: 'final', status: 'pass', should_block: false, errors: [], warnings: [] });
    expect(r.metrics).toEqual({ total_claims: 2, grounded_claims: 2, numeric_claims: 2, required_evidence: 0, numeric_mismatch: 0, missing_evidence: 0, evidence_values: 5, nodes_with_evidence: 2 });
    expect(r.policy).toMatchObject({ mode: 'warn', numeric_match: { default_tolerance: { absolute: 0, relative: 0.02 } }, blocking: { block_on: ['numeric_mismatch', 'operand_unresolved', 'missing_evidence'] } });
    const { report_path, ...report } = r;
    expect(report_path).toBe(reportFile('final'));
    expect(JSON.parse(readFileSync(reportFile('final'), 'utf8'))).toEqual(report);
    expect(readdirSync(join(ckpt, 'evaluation'))).toEqual(['claim_evidence_hard_gate_final.json']);
  });

  test('a single trial of a list matches too, as does the mean', async () => {
    expect((await gate({ text: 'accuracy: 0.92' })).status).toBe('pass');
    expect((await gate({ text: 'accuracy: 0.915' })).status).toBe('pass');
  });

  test('a number beyond the tolerance is a numeric_mismatch naming the nearest reported values', async () => {
    const r = await gate({ text: MISMATCH });
    expect(r.status).toBe('fail');
    expect(r.should_block).toBe(false);
    expect(r.errors).toEqual([
      { type: 'numeric_mismatch', key: 'speedup', claimed: 2.1, where: 'text', evidence: [2], message: '"speedup of 2.1" (text): 2.1 matches no reported \'speedup\' within tolerance (nearest 2)' },
    ]);
    expect(r.metrics).toMatchObject({ total_claims: 1, grounded_claims: 0, numeric_mismatch: 1 });
  });

  test('the policy tolerance decides: 5% off passes at relative 0.1, and absolute adds to it', async () => {
    expect((await gate({ text: MISMATCH, policy: { numeric_match: { default_tolerance: { relative: 0.1 } } } })).status).toBe('pass');
    expect((await gate({ text: MISMATCH, policy: '{"numeric_match": {"default_tolerance": {"absolute": 0.06, "relative": 0.02}}}' })).status).toBe('pass');
    expect((await gate({ text: MISMATCH, policy: { numeric_match: { default_tolerance: { absolute: 0.05, relative: 0 } } } })).status).toBe('fail');
  });

  test('a claim for a metric no node reported is missing_evidence; so is a required measurement', async () => {
    contract({ key: 'latency', metric_keyword: 'latency', required_measured: ['latency'], claims: [] });
    const r = await gate({ text: 'Latency drops to 3.5 ms.' });
    expect(r.errors.map((e: { type: string }) => e.type)).toEqual(['missing_evidence', 'missing_evidence']);
    expect(r.errors[0].message).toBe('"Latency drops to 3.5" (text): no node reported \'latency\'');
    expect(r.errors[1].message).toBe("no node reported 'latency' (metric_contract.json required_measured)");
    expect(r.metrics).toMatchObject({ total_claims: 2, grounded_claims: 0, missing_evidence: 2 });
  });

  test("without text the contract's claims and required evidence are checked", async () => {
    contract({ key: 'speedup', required_measured: ['speedup'], claims: [{ claim: 'a speedup of at least 2.0 over the baseline', required_evidence: ['speedup', 'baseline_runtime'] }] });
    const r = await gate({ phase: 'draft' });
    expect(r.metrics).toMatchObject({ total_claims: 4, grounded_claims: 3, numeric_claims: 1, required_evidence: 3, missing_evidence: 0 });
    expect(r.errors).toHaveLength(1);
    // evidence a contract claim needs is the contract's: claim_evidence_missing, which blocks in every mode
    expect(r.errors[0]).toMatchObject({ type: 'claim_evidence_missing', key: 'baseline_runtime' });
  });

  test('LaTeX from tex_path: commands, braces and comments do not hide or invent claims', async () => {
    writeFileSync(join(ckpt, 'paper.tex'), '\\section{Results}\nThe \\textbf{speedup} is $2.0\\times$ and accuracy reaches 91.5\\%.\n% speedup of 9.9 was a typo\n');
    const r = await gate({ tex_path: 'paper.tex' });
    expect(r.metrics).toMatchObject({ numeric_claims: 2, grounded_claims: 2 });
    expect(r.status).toBe('pass');
  });

  test('nothing to check: a no_claims warning', async () => {
    const r = await gate({ text: 'No numbers here.' });
    expect(r.status).toBe('warn');
    expect(r.warnings).toEqual([{ type: 'no_claims', message: 'no numeric claim and no required evidence to check' }]);
  });
});

describe('claim_evidence_hard_gate: modes', () => {
  test('strict + final + a block_on error: an error, after the report is written with should_block', async () => {
    const err = await gate({ text: MISMATCH }, { SVC_CLAIM_GATE_MODE: 'strict' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClaimGateBlockedError);
    expect((err as Error).message).toBe('claim_evidence_hard_gate blocks the final paper: 1 blocking error, the first: "speedup of 2.1" (text): 2.1 matches no reported \'speedup\' within tolerance (nearest 2)');
    expect((err as ClaimGateBlockedError).hint).toContain(reportFile('final'));
    expect(JSON.parse(readFileSync(reportFile('final'), 'utf8'))).toMatchObject({ status: 'fail', should_block: true, policy: { mode: 'strict' } });
  });

  test('strict draft never blocks', async () => {
    const r = await gate({ text: MISMATCH, phase: 'draft' }, { SVC_CLAIM_GATE_MODE: 'strict' });
    expect(r).toMatchObject({ phase: 'draft', status: 'fail', should_block: false });
    expect(readdirSync(join(ckpt, 'evaluation'))).toEqual(['claim_evidence_hard_gate_draft.json']);
  });

  test('warn never blocks the final paper', async () => {
    expect(await gate({ text: MISMATCH })).toMatchObject({ status: 'fail', should_block: false });
  });

  test('off checks nothing and never blocks', async () => {
    const r = await gate({ text: MISMATCH, policy: { mode: 'strict' } }, { SVC_CLAIM_GATE_MODE: 'off' });
    expect(r).toMatchObject({ status: 'off', should_block: false, errors: [], warnings: [], policy: { mode: 'off' } });
    expect(r.metrics.total_claims).toBe(0);
  });

  test("the workflow's mode, the policy argument over it, SVC_CLAIM_GATE_MODE over both", async () => {
    writeFileSync(join(ckpt, 'workflow.yaml'), 'claim_gate_policy:\n  mode: strict\n');
    await expect(gate({ text: MISMATCH })).rejects.toThrow(ClaimGateBlockedError);
    expect((await gate({ text: MISMATCH, policy: { mode: 'warn' } })).should_block).toBe(false);
    await expect(gate({ text: MISMATCH, policy: { mode: 'warn' } }, { SVC_CLAIM_GATE_MODE: 'strict' })).rejects.toThrow(ClaimGateBlockedError);
  });

  test('only block_on types block: a missing_evidence error does not when block_on lists numeric_mismatch alone', async () => {
    contract({ key: 'latency' });
    const r = await gate({ text: 'Latency is 3.5 ms', policy: { mode: 'strict', blocking: { block_on: ['numeric_mismatch'] } } });
    expect(r).toMatchObject({ status: 'fail', should_block: false });
    expect(r.errors[0].type).toBe('missing_evidence');
    await expect(gate({ text: 'Latency is 3.5 ms', policy: { mode: 'strict' } })).rejects.toThrow('1 blocking error');
  });
});

describe('claim_evidence_hard_gate: comparisons across environments', () => {
  const ran = (id: string, hostname: string, cpu = 'EPYC') => writeFileSync(join(experiments, id, 'node_report.json'), JSON.stringify({ schema_version: 1, node_id: id, executor: 'local', hostname, slurm_partition: null, cpu_info: { model: cpu } }));
  const COMPARE = 'We reach an accuracy of 91.5% and a speedup of 2.0x.';
  beforeEach(() => {
    mkdirSync(join(experiments, 'node_b'), { recursive: true });
  });

  test('claims backed by nodes of two environments: a warning under any, a blocking error under same_environment', async () => {
    ran('node_a', 'vm-1');
    ran('node_b', 'vm-2');
    const any = await gate({ text: COMPARE });
    expect(any).toMatchObject({ status: 'warn', should_block: false, errors: [] });
    expect(any.warnings).toEqual([{ type: 'environment_mismatch', message: 'the claims compare numbers measured in different environments: local / vm-1 / - / EPYC; local / vm-2 / - / EPYC' }]);
    const same = await gate({ text: COMPARE, policy: { comparison_scope: 'same_environment' } });
    expect(same).toMatchObject({ status: 'fail', should_block: false, warnings: [] });
    expect(same.errors.map((e: { type: string }) => e.type)).toEqual(['environment_mismatch']);
    // strict final: it blocks, whatever block_on lists; SVC_COMPARISON_SCOPE sets the scope
    await expect(gate({ text: COMPARE, policy: { mode: 'strict', blocking: { block_on: ['numeric_mismatch'] } } }, { SVC_COMPARISON_SCOPE: 'same_environment' })).rejects.toThrow('environment');
    // the draft never blocks
    expect((await gate({ text: COMPARE, phase: 'draft', policy: { mode: 'strict', comparison_scope: 'same_environment' } })).should_block).toBe(false);
  });

  test('one environment, a node without a report, or a single claim: no finding', async () => {
    ran('node_a', 'vm-1');
    ran('node_b', 'vm-1');
    expect((await gate({ text: COMPARE, policy: { comparison_scope: 'same_environment' } })).status).toBe('pass');
    ran('node_b', 'vm-2');
    expect((await gate({ text: 'A speedup of 2.0x.', policy: { comparison_scope: 'same_environment' } })).status).toBe('pass');
    removeDir(join(experiments, 'node_b', 'node_report.json'));
    expect((await gate({ text: COMPARE, policy: { comparison_scope: 'same_environment' } })).status).toBe('pass');
  });
});

describe('claim_evidence_hard_gate: bad inputs', () => {
  test('a node results.json that is not JSON is a warning naming it; the other evidence counts', async () => {
    results('node_c', '{"measurements": ');
    const r = await gate({ text: 'accuracy of 0.915' });
    expect(r.status).toBe('warn');
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatchObject({ type: 'evidence_unreadable' });
    expect(r.warnings[0].message).toStartWith(`${join(experiments, 'node_c', 'results.json')}: is not valid JSON`);
    expect(r.metrics.grounded_claims).toBe(1);
  });

  test('a damaged tree.json is a warning; results.json evidence still counts', async () => {
    writeFileSync(join(ckpt, 'tree.json'), '{"nodes": [');
    const r = await gate({ text: 'accuracy of 0.92' });
    expect(r.metrics.grounded_claims).toBe(1);
    expect(r.warnings.some((w: { message: string }) => w.message.includes('tree.json: is not valid JSON'))).toBe(true);
  });

  test('path traversal in tex_path is refused before anything is read or written', async () => {
    writeFileSync(join(base, 'secret.tex'), 'speedup 2.0');
    for (const p of ['../../../secret.tex', join(base, 'secret.tex'), '/etc/passwd']) {
      const err = await gate({ tex_path: p }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InputError);
      expect((err as Error).message).toBe(`tex_path '${p}' is outside ${ckpt}`);
    }
    expect(readdirSync(ckpt)).toEqual(['tree.json']);
  });

  test('a checkpoint_dir outside the checkpoints directory is refused', async () => {
    for (const p of ['/etc', '../../..', join(base, 'workspace')]) {
      const err = await gate({ checkpoint_dir: p }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InputError);
      expect((err as Error).message).toBe(`checkpoint_dir '${p}' is outside ${join(base, 'workspace', 'checkpoints')}`);
    }
  });

  test('a checkpoint_dir or tex_path that does not exist is NotFound', async () => {
    await expect(gate({ checkpoint_dir: 'run2' })).rejects.toThrow(NotFoundError);
    await expect(gate({ tex_path: 'paper.tex' })).rejects.toThrow(`tex_path ${join(ckpt, 'paper.tex')} is not a file`);
  });

  test('bad arguments and settings say what is wrong', async () => {
    await expect(gate({ text: 'x', tex_path: 'paper.tex' })).rejects.toThrow('give text or tex_path, not both');
    await expect(gate({ checkpoint_dir: ' ' })).rejects.toThrow('checkpoint_dir is empty');
    await expect(gate({ phase: 'camera_ready' })).rejects.toThrow();
    await expect(gate({ policy: '{mode' })).rejects.toThrow('policy is not valid JSON');
    await expect(gate({ policy: { mode: 'loud' } })).rejects.toThrow('policy.mode must be one of off, warn, strict, got "loud"');
    await expect(gate({ policy: { numeric_match: { default_tolerance: { relative: -1 } } } })).rejects.toThrow('policy.numeric_match.default_tolerance.relative must be a number of at least 0');
    await expect(gate({ policy: { blocking: { block_on: 'all' } } })).rejects.toThrow('policy.blocking.block_on must be a list of finding types');
    await expect(gate({}, { SVC_CLAIM_GATE_MODE: 'loud' })).rejects.toThrow('SVC_CLAIM_GATE_MODE must be one of off, warn, strict, got "loud"');
    await expect(gate({ text: 'x' })).resolves.toMatchObject({ status: 'warn' });
  });

  test('a metric contract that is not JSON is an error naming it', async () => {
    writeFileSync(join(ckpt, 'metric_contract.json'), '{bad');
    await expect(gate({ text: 'accuracy 0.9' })).rejects.toThrow(`${join(ckpt, 'metric_contract.json')}: is not valid JSON`);
  });
});
