import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { hashFileSync } from '../../../src/core/file-hash.ts';
import { join } from 'node:path';
import { printRunEnd } from '../../../src/cli/run-end.ts';
import type { RunEnd } from '../../../src/run/execute.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let lines: string[];
let write: typeof process.stdout.write;
beforeEach(() => {
  lines = [];
  write = process.stdout.write;
  process.stdout.write = ((chunk: string) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  }) as typeof process.stdout.write;
});
afterEach(() => {
  process.stdout.write = write;
});

const end = (over: Partial<RunEnd>): RunEnd => ({ checkpointDir: '/ck', nodes: [], best: null, ended: 'done', ...over });

describe('printRunEnd', () => {
  test('a finished run ends with the pipeline summary and exit 0', () => {
    expect(printRunEnd(end({ pipeline: { stages: [{ stage: 'ear_curate', status: 'done', detail: '' }], failure: null } }))).toBe(0);
    expect(lines.at(-1)).toBe('post-search pipeline: 1 done');
  });

  test('a failed pipeline (a required publish) is exit 1, and the line says why', () => {
    const failure = 'ear_publish failed and publish.yaml sets required: true: registry unreachable';
    expect(printRunEnd(end({ pipeline: { stages: [{ stage: 'ear_publish', status: 'failed', detail: 'registry unreachable' }], failure } }))).toBe(1);
    expect(lines.at(-1)).toBe(`post-search pipeline: 1 failed; it failed: ${failure}`);
  });

  test('a stopped run says how to continue, exit 1, and has no pipeline line', () => {
    expect(printRunEnd(end({ ended: 'stopped' }))).toBe(1);
    expect(lines.at(-1)).toBe('stopped before the end; continue with: svc resume /ck');
    expect(lines.some((l) => l.startsWith('post-search pipeline'))).toBe(false);
  });

  test('a run whose every node failed is exit 1 and says why, by the reason most of them give', () => {
    const failed = (id: string, error_log: string) => ({ id, status: 'failed', error_log, eval_summary: null, metrics: {} }) as unknown as RunEnd['nodes'][number];
    const nodes = [failed('a', 'model call failed at step 1: HTTP 500\nstack'), failed('b', 'model call failed at step 1: HTTP 500'), failed('c', 'timed out after 300 s')];
    expect(printRunEnd(end({ nodes }))).toBe(1);
    expect(lines.at(-1)).toBe('every node failed: model call failed at step 1: HTTP 500 (2 of 3 nodes; svc status shows the others)');
    expect(printRunEnd(end({ nodes: nodes.slice(0, 2) }))).toBe(1);
    expect(lines.at(-1)).toBe('every node failed: model call failed at step 1: HTTP 500');
  });

  describe('the paper at the end', () => {
    let ck: string;
    beforeEach(() => {
      ck = tempDir();
    });
    afterEach(() => removeDir(ck));
    const write = (name: string, v: unknown) => writeFileSync(join(ck, name), typeof v === 'string' ? v : JSON.stringify(v));
    /** A refined paper finalize_paper made final, its final gate's report (with `gate` over it) on the same file. */
    const finalized = (gate: Record<string, unknown> = {}) => {
      write('full_paper_refined.tex', 'the refined paper');
      const sha = hashFileSync(join(ck, 'full_paper_refined.tex')).sha256;
      mkdirSync(join(ck, 'evaluation'), { recursive: true });
      write('evaluation/claim_evidence_hard_gate_final.json', { phase: 'final', policy: { mode: 'warn' }, status: 'pass', should_block: false, errors: [], tex_sha256: sha, ...gate });
      write('final_paper.pdf', '%PDF-1.5');
      write('finalize_paper.json', { finalized: true, pdf_path: join(ck, 'final_paper.pdf'), source_tex: join(ck, 'full_paper_refined.tex'), source_sha256: sha, gate: { report: join(ck, 'evaluation/claim_evidence_hard_gate_final.json') } });
    };
    const paperStages = () => ({ stages: [{ stage: 'write_paper', status: 'done' as const, detail: '', output: join(ck, 'full_paper.tex') }, { stage: 'render_paper', status: 'done' as const, detail: '', output: join(ck, 'full_paper_refined.pdf') }], failure: null });

    test("the review's scores in one line, then the final paper", () => {
      write('review_report.json', {
        rubric_id: 'neurips',
        overall_score: 8,
        decision: 'accept',
        score_dimensions: [
          { name: 'soundness', value: 3, scale: [1, 4] },
          { name: 'overall', value: 8, scale: [1, 10] },
          { name: 'confidence', value: 4, scale: [1, 5] },
        ],
        ensemble_reviews: [{}, {}, {}],
      });
      finalized();
      expect(printRunEnd(end({ checkpointDir: ck, pipeline: paperStages() }))).toBe(0);
      expect(lines.slice(-2)).toEqual(['review: neurips rubric, overall 8/10, accept (meta review of 3 reviews); soundness 3/4, confidence 4/5', `paper: ${join(ck, 'final_paper.pdf')} (final)`]);
    });

    test('a final paper is final no longer once its source changes or the final gate, run again, blocks it', () => {
      write('full_paper_refined.pdf', '%PDF-1.5');
      finalized();
      write('full_paper_refined.tex', 'the refined paper, edited');
      printRunEnd(end({ checkpointDir: ck, pipeline: paperStages() }));
      expect(lines.at(-1)).toBe(`paper: ${join(ck, 'full_paper_refined.pdf')} (not final: the paper changed after it was made final; run the claim_evidence_hard_gate_final and finalize_paper stages again)`);
      finalized({ should_block: true, policy: { mode: 'strict' }, reason: 'a number no node measured' });
      printRunEnd(end({ checkpointDir: ck, pipeline: paperStages() }));
      expect(lines.at(-1)).toBe(`paper: ${join(ck, 'full_paper_refined.pdf')} (not final: the final claim gate (strict mode) blocks it: a number no node measured)`);
    });

    test("the graded reproduction's line comes after the review's", () => {
      write('review_report.json', { rubric_id: 'neurips', overall_score: 8, decision: 'accept', score_dimensions: [] });
      write('reproducibility_report.json', { ors_score: 0.9, n_runs: 3, spread: 0, degraded: false, negative_control: { passed: true } });
      printRunEnd(end({ checkpointDir: ck, pipeline: { stages: [], failure: null } }));
      expect(lines.slice(-2)).toEqual(['review: neurips rubric, overall 8, accept', 'reproduction: ORS 0.900 over 3 runs (spread 0.000), negative controls passed']);
    });

    test('a paper the gate holds back: the last compiled paper and why it is not final', () => {
      write('full_paper_refined.pdf', '%PDF-1.5');
      write('finalize_paper.json', { finalized: false, reason: 'the final claim gate (strict mode) blocks it: 1 blocking error' });
      printRunEnd(end({ checkpointDir: ck, pipeline: paperStages() }));
      expect(lines.at(-1)).toBe(`paper: ${join(ck, 'full_paper_refined.pdf')} (not final: the final claim gate (strict mode) blocks it: 1 blocking error)`);
    });

    test('a finalize record of another tool, or none, and no review: the compiled paper alone', () => {
      write('full_paper.pdf', '%PDF-1.5');
      write('finalize_paper.json', { tex_path: 'x.tex', statement: 'code' });
      printRunEnd(end({ checkpointDir: ck, pipeline: { stages: [{ stage: 'write_paper', status: 'done', detail: '', output: join(ck, 'full_paper.tex') }], failure: null } }));
      expect(lines.slice(-2)).toEqual(['post-search pipeline: 1 done', `paper: ${join(ck, 'full_paper.pdf')}`]);
      write('review_report.json', '{"rubric_id": ');
      printRunEnd(end({ checkpointDir: ck, pipeline: { stages: [], failure: null } }));
      expect(lines.at(-1)).toBe('post-search pipeline: no stages');
    });
  });
});
