import { afterEach, beforeEach, describe, expect, spyOn, test } from 'bun:test';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashFileSync } from '../../../../src/core/file-hash.ts';
import { ClaimGateBlockedError } from '../../../../src/evaluate/claim-gate/index.ts';
import { linkPaperFile } from '../../../../src/evaluate/claim-gate/link-file.ts';
import { semanticReview } from '../../../../src/evaluate/semantic-review/index.ts';
import { claimEvidenceHardGate } from '../../../../src/skills/evaluator/claim-gate.ts';
import { GATE_NODES, type GateRun, gatePaper, writeGateRun } from '../../../support/claim-gate-paper.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { callTool } from '../coding/tool-call.ts';

let base: string;
let run: GateRun;
beforeEach(() => {
  base = tempDir();
  mkdirSync(join(base, 'home'));
  run = writeGateRun(base);
});
afterEach(() => removeDir(base));

type Finding = { type: string; message: string; where?: string };
const MODES = ['off', 'warn', 'strict'] as const;
const PHASES = ['draft', 'final'] as const;
const reportFile = (phase: string) => join(run.ckpt, 'evaluation', `claim_evidence_hard_gate_${phase}.json`);
const paper = (tex: string) => writeFileSync(join(run.ckpt, 'paper.tex'), tex);
const contract = (c: Record<string, unknown>) => writeFileSync(join(run.ckpt, 'metric_contract.json'), JSON.stringify(c));

/** The report of one gate run, also when it blocks (then read from disk, as a later stage would). */
async function gate(mode: string, phase: string, policy: Record<string, unknown> = {}): Promise<any> {
  try {
    return await callTool(claimEvidenceHardGate, { checkpoint_dir: run.ckpt, phase, tex_path: 'paper.tex', policy: { mode, ...policy } }, { HOME: join(base, 'home'), SVC_CHECKPOINT_DIR: run.ckpt });
  } catch (err) {
    if (!(err instanceof ClaimGateBlockedError)) throw err;
    expect(mode).not.toBe('off');
    expect(phase).toBe('final');
    const report = JSON.parse(readFileSync(reportFile(phase), 'utf8'));
    expect(err.message).toBe(`claim_evidence_hard_gate blocks the final paper: ${report.reason}`);
    return report;
  }
}
const types = (list: Finding[]) => list.map((f) => f.type);

/** should_block for each mode and phase: off, warn draft, warn final, strict draft, strict final. */
async function blocking(policy: Record<string, unknown> = {}): Promise<boolean[]> {
  const out: boolean[] = [];
  for (const mode of MODES) for (const phase of mode === 'off' ? (['final'] as const) : PHASES) out.push((await gate(mode, phase, policy)).should_block);
  return out;
}

describe('claim gate on a paper, every mode and phase', () => {
  test('numbers that match the data pass in every mode; the report names the paper and its digest', async () => {
    const tex = gatePaper({ results: 'Shell sort needs 50 comparisons, the best of 2 configurations, with 0.5 s per sort.' });
    paper(tex);
    expect(await blocking()).toEqual([false, false, false, false, false]);
    for (const mode of ['warn', 'strict']) {
      const r = await gate(mode, 'final');
      expect(r).toMatchObject({ status: 'pass', should_block: false, errors: [], warnings: [], tex_path: join(run.ckpt, 'paper.tex'), tex_sha256: createHash('sha256').update(tex).digest('hex') });
      expect(r.reason).toBeUndefined();
      expect(r.metrics).toMatchObject({ anchors: 4, numbers: 5, covered_numbers: 5, numeric_claims: 9, grounded_claims: 9 });
      expect(r.metrics.coverage).toContainEqual({ section: 'results', class: 'strict', numbers: 4, covered: 4 });
      expect(r.metrics.coverage).toContainEqual({ section: 'abstract', class: 'strict', numbers: 2, covered: 2 });
      // the related work and the displayed equation are excluded: their numbers are listed, not checked
      expect(r.metrics.coverage).toContainEqual({ section: 'related_work', class: 'excluded', numbers: 1, covered: 0 });
    }
    expect(await gate('off', 'final')).toMatchObject({ status: 'off', errors: [], warnings: [] });
  });

  test('a number outside the tolerance: an error in warn and strict, blocking only the strict final paper', async () => {
    paper(gatePaper({ results: 'With geometric gaps the comparisons drop to 57.' }));
    expect(await blocking()).toEqual([false, false, false, false, true]);
    const r = await gate('strict', 'final');
    expect(types(r.errors)).toEqual(['numeric_mismatch']);
    expect(r.errors[0]).toMatchObject({ claimed: 57, where: 'paper.tex line 14, results' });
    expect(r.reason).toBe(`1 blocking error, the first: ${r.errors[0].message}`);
    // the refuted number is not also reported as uncovered
    expect(r.warnings).toEqual([]);
    // within the tolerance the policy gives, it passes
    expect((await gate('strict', 'final', { numeric_match: { default_tolerance: { absolute: 0, relative: 0.2 } } })).status).toBe('pass');
  });

  test('a number given for a metric must match that metric: equal to another measurement (time_s 2.0) it is a mismatch', async () => {
    paper(gatePaper({ results: 'Insertion sort reaches comparisons of 2.0 on the input.' }));
    expect(await blocking()).toEqual([false, false, false, false, true]);
    const r = await gate('strict', 'final');
    expect(types(r.errors)).toEqual(['numeric_mismatch']);
    expect(r.errors[0]).toMatchObject({ key: 'comparisons', claimed: 2, where: 'paper.tex line 14, results' });
    expect(r.warnings).toEqual([]);
    // the same number named for no metric matches any value, as before
    paper(gatePaper({ results: 'Insertion sort is over in 2.0 on the input.' }));
    expect((await gate('strict', 'final')).status).toBe('pass');
    // and given for time_s it is that metric's
    paper(gatePaper({ results: 'Insertion sort needs 2.0 s per sort.' }));
    expect((await gate('strict', 'final')).status).toBe('pass');
  });

  test('an unanchored number in the abstract: a blocking error in strict, a warning in warn', async () => {
    paper(gatePaper({ abstract: 'Each sort takes 3.7 ms.' }));
    expect(await blocking()).toEqual([false, false, false, false, true]);
    const warn = await gate('warn', 'final');
    expect(warn).toMatchObject({ status: 'warn', errors: [] });
    expect(types(warn.warnings)).toEqual(['uncovered_numeric']);
    expect(warn.warnings[0].message).toStartWith('3.7 (paper.tex line 7, abstract, strict section) has no claim anchor');
    const strict = await gate('strict', 'final');
    expect(types(strict.errors)).toEqual(['uncovered_numeric']);
    expect(strict.metrics.coverage).toContainEqual({ section: 'abstract', class: 'strict', numbers: 3, covered: 2 });
    // the same number in a warn section is a warning even in strict; in an excluded one it is not checked
    paper(gatePaper({ extra: '\\section{Discussion}\nEach sort takes 3.7 ms.' }));
    expect(await gate('strict', 'final')).toMatchObject({ should_block: false, errors: [] });
    expect(types((await gate('strict', 'final')).warnings)).toEqual(['uncovered_numeric']);
    paper(gatePaper({ extra: '\\appendix\n\\section{More}\nEach sort takes 3.7 ms.' }));
    expect(await gate('strict', 'final')).toMatchObject({ status: 'pass' });
  });

  test('a comparison across environments: a warning under scope any, a blocking error in strict under same_environment', async () => {
    removeDir(base);
    run = writeGateRun(base, [
      { ...(GATE_NODES[0] as (typeof GATE_NODES)[number]), host: 'vm-1' },
      { ...(GATE_NODES[1] as (typeof GATE_NODES)[number]), host: 'vm-2' },
    ]);
    mkdirSync(join(base, 'home'));
    paper(gatePaper());
    expect(await blocking()).toEqual([false, false, false, false, false]);
    const any = await gate('strict', 'final');
    expect(types(any.warnings)).toEqual(['environment_mismatch']);
    expect(await blocking({ comparison_scope: 'same_environment' })).toEqual([false, false, false, false, true]);
    const same = await gate('warn', 'final', { comparison_scope: 'same_environment' });
    expect(types(same.errors)).toEqual(['environment_mismatch']);
  });

  test('a failed invariant blocks the final paper in warn and strict, never the draft, never off', async () => {
    contract({ key: 'comparisons', formula: 'comparisons', invariants: ['comparisons > 0', 'time_s < 1'] });
    paper(gatePaper());
    expect(await blocking()).toEqual([false, false, true, false, true]);
    const r = await gate('warn', 'final');
    expect(r.errors).toEqual([{ type: 'invariant_violation', where: 'node_base', message: 'the invariant time_s < 1 does not hold on node_base' }]);
    expect(r.reason).toBe('1 blocking error, the first: the invariant time_s < 1 does not hold on node_base');
  });
});

describe('claim gate on a paper: anchors, nodes and figures', () => {
  test('an anchor with no science-data key, and one printing another value', async () => {
    paper(gatePaper({ results: 'Shell sort needs \\svcclaim{best.compares}{50} comparisons, \\svcclaim{node_best.time_s}{0.7} s each.' }));
    const r = await gate('strict', 'final');
    expect(types(r.errors)).toEqual(['unresolved_anchor', 'declared_value_drift']);
    expect(r.errors[0].message).toBe('\\svcclaim{best.compares} (paper.tex line 14, results) names no value of science_data.json');
    expect(r.errors[1].message).toBe('\\svcclaim{node_best.time_s} (paper.tex line 14, results) prints 0.7, but science_data.json gives 0.5');
    // neither is in block_on: the strict final paper is not blocked by them
    expect(r.should_block).toBe(false);
    expect((await gate('strict', 'final', { blocking: { block_on: ['unresolved_anchor'] } })).should_block).toBe(true);
  });

  test("an anchor's node: results gone, never run, or not measuring the metric", async () => {
    removeDir(base);
    mkdirSync(join(base, 'home'), { recursive: true });
    run = writeGateRun(base, [GATE_NODES[0] as (typeof GATE_NODES)[number], { ...(GATE_NODES[1] as (typeof GATE_NODES)[number]), status: 'pending' }], {
      'node_gone.comparisons': { value: 7, metric: 'comparisons', node_id: 'node_gone', what: 'x' },
      'node_base.moves': { value: 900, metric: 'moves', node_id: 'node_base', what: 'moves of the baseline' },
    });
    paper(gatePaper({ results: 'Also \\svcclaim{node_gone.comparisons}{7} and \\svcclaim{node_base.moves}{900}.' }));
    const r = await gate('warn', 'draft');
    expect(types(r.errors)).toEqual(['node_not_executed', 'artifact_missing', 'result_unresolved']);
    expect(r.errors[0].message).toContain('was measured on node_best, which tree.json says never ran');
  });

  test('figures: one not in the manifest, one never referenced, one whose file is missing', async () => {
    writeFileSync(join(run.ckpt, 'fig1.pdf'), '%PDF');
    writeFileSync(
      join(run.ckpt, 'figures_manifest.json'),
      JSON.stringify({ figures: [{ file: 'fig1.pdf', png: 'fig1.png', kind: 'metric_bar', caption: 'c', caption_source: 'data', label: 'fig:bar', source: { 'best.comparisons': 50 } }], latex_snippets: [], notes: [] }),
    );
    paper(gatePaper({ results: '\\includegraphics{fig1.pdf} \\includegraphics[width=0.5\\linewidth]{other.pdf}' }));
    const r = await gate('warn', 'draft');
    expect(types(r.errors)).toEqual(['figure_source_missing']);
    expect(r.errors[0].message).toBe("figure 'other.pdf' (line 14) is not there");
    expect(types(r.warnings).sort()).toEqual(['figure_unreferenced', 'figure_unregistered']);
  });

  test('missing science data: every anchor is unresolved, and the reason is given', async () => {
    removeDir(join(run.ckpt, 'science_data.json'));
    paper(gatePaper());
    const r = await gate('warn', 'final');
    expect(new Set(types(r.errors))).toEqual(new Set(['unresolved_anchor']));
    expect(r.warnings.some((w: Finding) => w.message.includes('no science_data.json'))).toBe(true);
  });
});

describe('claim gate: the metric contract on the nodes', () => {
  beforeEach(() => paper(gatePaper()));

  test('the formula recomputed on every node must give its reported key', async () => {
    contract({ key: 'rate', formula: 'comparisons / time_s' });
    removeDir(base);
    mkdirSync(join(base, 'home'), { recursive: true });
    run = writeGateRun(base, [
      { id: 'node_base', measurements: { comparisons: 1000, time_s: 2, rate: 500 } },
      { id: 'node_best', measurements: { comparisons: 50, time_s: 0.5, rate: 120 } },
    ]);
    paper(gatePaper());
    contract({ key: 'rate', formula: 'comparisons / time_s' });
    const r = await gate('warn', 'final');
    expect(r.errors).toEqual([{ type: 'recompute_mismatch', key: 'rate', claimed: 120, evidence: [100], where: 'node_best', message: 'node_best reports rate = 120, but its measurements give comparisons / time_s = 100' }]);
    expect(r.should_block).toBe(true);
  });

  test('an operand nothing measured, a placeholder denominator, and a denominator that is 0 on a node', async () => {
    contract({ key: 'comparisons', formula: 'comparisons * swaps / 1' });
    expect(types((await gate('warn', 'draft')).errors)).toEqual(['operand_unresolved', 'placeholder_denominator']);
    contract({ key: 'comparisons', formula: 'comparisons * (2 - time_s) / (2 - time_s)' });
    const r = await gate('warn', 'final');
    expect(r.errors).toEqual([{ type: 'placeholder_denominator', where: 'node_base', message: 'the formula (comparisons * (2 - time_s)) / (2 - time_s) divides by 2 - time_s, which is 0 on node_base' }]);
    expect(r.should_block).toBe(true);
  });

  test('correctness: failed, uncovered, or required without a check', async () => {
    contract({ key: 'comparisons', correctness: { expr: 'comparisons < 500', requires: ['comparisons'] } });
    expect((await gate('warn', 'final')).errors).toEqual([{ type: 'correctness_failed', where: 'node_base', message: 'the correctness check comparisons < 500 fails on node_base' }]);
    contract({ key: 'comparisons', correctness: { expr: 'sorted == 1', requires: ['sorted'] }, correctness_required: true });
    expect(types((await gate('warn', 'final')).errors)).toEqual(['correctness_uncovered', 'correctness_uncovered']);
    contract({ key: 'comparisons', correctness: { expr: null, requires: [] }, correctness_required: true });
    expect((await gate('warn', 'final')).errors).toEqual([{ type: 'correctness_uncovered', where: 'correctness', message: 'correctness_required is set but the contract has no correctness.expr to check' }]);
  });

  test('a ceiling that must be measured, and a contract claim without its evidence', async () => {
    contract({ key: 'comparisons', ceiling_must_be_measured: true, ceiling_select: 'lower_bound', claims: [{ claim: 'near the lower bound', required_evidence: ['lower_bound'] }] });
    const r = await gate('warn', 'final');
    expect(types(r.errors)).toEqual(['claim_evidence_missing', 'ceiling_unmeasured']);
    expect(r.errors[1].message).toBe("the ceiling lower_bound reads 'lower_bound', which no node measured");
    expect(r.should_block).toBe(true);
    expect((await gate('warn', 'draft')).should_block).toBe(false);
  });

  test('an expression that does not parse is contract_unparsable, naming it and the column: it blocks the final paper in strict mode, not in warn mode', async () => {
    paper(gatePaper());
    contract({ key: 'comparisons', invariants: ['comparisons >> 0'] });
    const r = await gate('warn', 'final');
    expect(r.errors).toEqual([{ type: 'contract_unparsable', where: 'invariants[0]', message: "metric_contract.json invariants[0] does not parse: expression 'comparisons >> 0': column 14: unexpected '>'" }]);
    expect(r.status).toBe('fail');
    // off, warn draft, warn final, strict draft, strict final
    expect(await blocking()).toEqual([false, false, false, false, true]);
    const strict = await gate('strict', 'final');
    expect(strict.reason).toBe(`1 blocking error, the first: ${r.errors[0].message}`);
    // every check's expression: the formula, the correctness check and the ceiling too, each one line
    contract({ key: 'comparisons', formula: 'comparisons +', correctness: { expr: 'comparisons <\n< 5' }, ceiling_must_be_measured: true, ceiling_select: 'max(' });
    const all = await gate('warn', 'final');
    expect(all.errors.map((e: Finding) => [e.type, e.where])).toEqual([
      ['contract_unparsable', 'formula'],
      ['contract_unparsable', 'correctness.expr'],
      ['contract_unparsable', 'ceiling_select'],
    ]);
    for (const e of all.errors) expect(e.message).not.toContain('\n');
    expect(all.should_block).toBe(false);
    expect((await gate('strict', 'final')).should_block).toBe(true);
  });
});

describe('the digest of the paper', () => {
  test('is the SHA-256 of the file bytes, also for a file that is not valid UTF-8: the gate, the links file and the semantic review agree', async () => {
    // a Latin-1 é (0xe9) in the introduction: decoded as UTF-8 it is a replacement character
    const tex = gatePaper();
    const at = tex.indexOf('an old problem');
    const bytes = Buffer.concat([Buffer.from(tex.slice(0, at)), Buffer.from([0xe9]), Buffer.from(tex.slice(at))]);
    writeFileSync(join(run.ckpt, 'paper.tex'), bytes);
    const file = join(run.ckpt, 'paper.tex');
    const digest = hashFileSync(file).sha256;
    expect(digest).not.toBe(createHash('sha256').update(bytes.toString('utf8')).digest('hex'));
    expect((await gate('warn', 'final')).tex_sha256).toBe(digest);
    const { links } = linkPaperFile(run.ckpt, file, 'draft', { HOME: join(base, 'home'), SVC_CHECKPOINT_DIR: run.ckpt });
    expect(links.tex_sha256).toBe(digest);
    expect(JSON.parse(readFileSync(join(run.ckpt, 'paper_claim_links.json'), 'utf8')).tex_sha256).toBe(digest);
    const review = await semanticReview({ checkpointDir: run.ckpt, texPath: file, phase: 'draft', connect: () => ({ choice: () => ({ role: 'eval', model: 'none', backend: 'openai-compatible', baseUrl: null, why: '' }), unavailable: () => 'no model', completeJson: async () => ({}) as never }) });
    expect(review.record.tex_sha256).toBe(digest);
  });
});

describe('the gate reads each record once', () => {
  test('science_data.json and metric_contract.json are read once per gate run', async () => {
    paper(gatePaper({ results: 'Shell sort needs 50 comparisons.' }));
    contract({ key: 'comparisons', formula: 'comparisons', required_measured: ['comparisons'] });
    const spy = spyOn(fs, 'readFileSync');
    try {
      expect((await gate('strict', 'final')).status).toBe('pass');
      const reads = (name: string) => spy.mock.calls.filter(([p]) => String(p).endsWith(name)).length;
      expect([reads('science_data.json'), reads('metric_contract.json')]).toEqual([1, 1]);
    } finally {
      spy.mockRestore();
    }
  });
});
