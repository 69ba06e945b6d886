import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { lacks } from '../support/components.ts';
import { startModelServer } from '../support/model-server.ts';
import { pdfText } from '../support/paper.ts';
import { type OpenAIChatRequest, researcherReply } from '../support/scripted-researcher.ts';
import { removeDir, SVC, svc, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

// The final claim gate and finalize_paper on the offline demo's checkpoint: the refined paper
// given a number the nodes never measured, checked in strict and in warn mode; and every new paper
// stage started again from the dashboard.

const skip = lacks('latex') || lacks('pdftools');
const NO_MODEL = { SVC_BACKEND: 'openai-compatible', LLM_API_BASE: 'http://127.0.0.1:9/v1', SVC_LLM_MAX_RETRIES: '0', SVC_LLM_TIMEOUT_S: '5' };
let dir: string;
let ck: string;
let refined: string;
let original: string;

beforeAll(async () => {
  dir = tempDir();
  if (skip) return;
  const demo = Bun.spawn([SVC, 'run', 'examples/demo/experiment.md', '--replay', 'examples/demo/cassette.jsonl'], {
    cwd: resolve(import.meta.dir, '..', '..'),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, NO_COLOR: '1', SVC_ROOT: dir },
    stdout: 'ignore',
    stderr: 'pipe',
    stdin: 'ignore',
  });
  const code = await demo.exited;
  if (code !== 0) throw new Error(`the demo failed: ${await new Response(demo.stderr).text()}`);
  const root = join(dir, 'workspace', 'checkpoints');
  ck = join(root, readdirSync(root)[0] ?? '');
  refined = join(ck, 'full_paper_refined.tex');
  original = readFileSync(refined, 'utf8');
}, 180_000);
afterAll(() => removeDir(dir));

const json = (name: string) => JSON.parse(readFileSync(join(ck, name), 'utf8'));
const stage = (name: string, env: Record<string, string> = {}) => svc(['paper', ck, '--stage', name], { cwd: dir, env: { HOME: dir, SVC_ROOT: dir, ...NO_MODEL, ...env } });

describe.skipIf(skip)('the final claim gate decides whether the paper is final', () => {
  afterEach(() => writeFileSync(refined, original));

  test('a number the nodes never measured: strict mode blocks the final paper (and removes the one there was); warn mode lets it through', async () => {
    expect(json('finalize_paper.json').finalized).toBe(true);
    // the demo's best needs 30,850 comparisons; the paper now claims 41,000 in its results
    writeFileSync(refined, original.replace('\\section{Conclusion}', 'The best configuration needs 41,000 comparisons on the array.\n\n\\section{Conclusion}'));

    const gate = await stage('claim_evidence_hard_gate_final', { SVC_CLAIM_GATE_MODE: 'strict' });
    expect(gate.stderr).toMatch(/claim_evidence_hard_gate_final: failed \(claim_evidence_hard_gate blocks the final paper: 1 blocking error, the first: .*41,000/);
    const report = json('evaluation/claim_evidence_hard_gate_final.json');
    expect(report).toMatchObject({ phase: 'final', status: 'fail', should_block: true, policy: { mode: 'strict' } });
    // a number in the results (a strict section) that no anchor and no measurement covers
    expect(report.errors.map((e: { type: string }) => e.type)).toEqual(['uncovered_numeric']);

    const blocked = await stage('finalize_paper');
    expect(blocked.code).toBe(0);
    expect(blocked.stderr).toMatch(/finalize_paper: skipped \(the final claim gate \(strict mode\) blocks it: /);
    const line = blocked.stdout.split('\n').find((l) => l.startsWith('paper: ')) ?? '';
    expect(line).toMatch(/^paper: \S+ \(not final: the final claim gate \(strict mode\) blocks it: .*41,000.*\)$/);
    expect(json('finalize_paper.json')).toMatchObject({ finalized: false, reason: expect.stringContaining('41,000'), pdf_path: null });
    expect(existsSync(join(ck, 'final_paper.pdf'))).toBe(false);
    expect(existsSync(join(ck, 'final_paper.tex'))).toBe(false);

    // warn mode reports the number and never blocks finalization
    const warned = await stage('claim_evidence_hard_gate_final');
    expect(warned.stderr).toContain('claim_evidence_hard_gate_final: done');
    const warnReport = json('evaluation/claim_evidence_hard_gate_final.json');
    expect(warnReport).toMatchObject({ status: 'warn', should_block: false, errors: [], policy: { mode: 'warn' } });
    expect(warnReport.warnings.map((w: { type: string }) => w.type)).toEqual(['uncovered_numeric']);
    const final = await stage('finalize_paper');
    expect(final.stderr).toContain('finalize_paper: done');
    expect(final.stdout).toContain(`paper: ${join(ck, 'final_paper.pdf')} (final)`);
    expect(pdfText(join(ck, 'final_paper.pdf')).replace(/\s+/g, ' ')).toContain('41,000 comparisons');
  }, 120_000);

  test('a paper changed after the final gate ran is not made final until the gate checks it again', async () => {
    expect((await stage('claim_evidence_hard_gate_final')).stderr).toContain('claim_evidence_hard_gate_final: done');
    writeFileSync(refined, `${original}\n% an edit after the gate\n`);
    const r = await stage('finalize_paper');
    expect(r.stderr).toContain('finalize_paper: skipped (the final claim gate checked another version of the paper; run the claim_evidence_hard_gate_final stage again)');
    expect(existsSync(join(ck, 'final_paper.pdf'))).toBe(false);
  }, 120_000);
});

describe.skipIf(skip)('the new paper stages from the dashboard (POST /api/run-stage)', () => {
  let viz: Viz | undefined;
  afterEach(async () => {
    await viz?.stop();
    viz = undefined;
  });

  /** Polls /state until the run the dashboard started has an exit code. */
  async function exitCodeOf(v: Viz): Promise<number> {
    for (let i = 0; i < 600; i++) {
      const { body } = await v.get('/state');
      if (body.exit_code !== null && body.exit_code !== undefined) return body.exit_code;
      await Bun.sleep(100);
    }
    throw new Error('the stage never ended');
  }

  test('each stage runs again and writes its output, the model stages against the scripted researcher', async () => {
    const model = startModelServer([], { respond: (b) => researcherReply(b as OpenAIChatRequest) });
    viz = await startViz([ck], { cwd: dir, env: { SVC_ROOT: dir, ...NO_MODEL, LLM_API_BASE: `${model.url}/v1` } });
    const outputs: [string, string][] = [
      ['link_paper_claims_draft', 'paper_claim_links.json'],
      ['claim_evidence_hard_gate_draft', 'evaluation/claim_evidence_hard_gate_draft.json'],
      ['evidence_grounded_semantic_review', 'evaluation/evidence_grounded_semantic_review.json'],
      ['merge_reviews', 'review_merge_log.json'],
      ['paper_refine', 'paper_refine.json'],
      ['render_paper', 'full_paper_refined.pdf'],
      ['link_paper_claims_final', 'paper_claim_links_final.json'],
      ['evidence_grounded_semantic_review_post_refine', 'evaluation/evidence_grounded_semantic_review_post_refine.json'],
      ['claim_evidence_hard_gate_final', 'evaluation/claim_evidence_hard_gate_final.json'],
      ['finalize_paper', 'finalize_paper.json'],
    ];
    try {
      for (const [name, file] of outputs) {
        rmSync(join(ck, file));
        const r = await viz.post('/api/run-stage', { stage: name });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ ok: true, checkpoint_path: ck, stage: name });
        expect(await exitCodeOf(viz)).toBe(0);
        expect(existsSync(join(ck, file)), `${name} wrote ${file}`).toBe(true);
      }
    } finally {
      model.stop();
    }
    expect(json('evaluation/evidence_grounded_semantic_review.json')).toMatchObject({ status: 'ok', counts: { supported: expect.any(Number) } });
    expect(json('paper_refine.json')).toMatchObject({ compiled: true, format_passes: true });
    expect(json('finalize_paper.json').finalized).toBe(true);
    // the checkpoint list shows the review score and the final gate's verdict
    const list = await viz.get('/api/checkpoints');
    const entry = list.body.find((c: { path: string }) => c.path === ck);
    expect(entry).toMatchObject({ review_score: 8, claim_gate: { phase: 'final', status: 'pass', should_block: false } });
  }, 300_000);
});
