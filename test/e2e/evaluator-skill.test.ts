import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import { startModelServer } from '../support/model-server.ts';
import { type OpenAIChatRequest, researcherReply } from '../support/scripted-researcher.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

let dir: string;
let ckpt: string;
let pool: SkillPool;

beforeEach(() => {
  dir = tempDir();
  ckpt = join(dir, 'workspace', 'checkpoints', 'run1');
  mkdirSync(join(dir, 'workspace', 'experiments', 'run1', 'node_a'), { recursive: true });
  mkdirSync(ckpt, { recursive: true });
  writeFileSync(join(dir, 'workspace', 'experiments', 'run1', 'node_a', 'results.json'), JSON.stringify({ measurements: { speedup: 2.0 } }));
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_CHECKPOINT_DIR: ckpt, SVC_CLAIM_GATE_MODE: 'strict' };
  pool = new SkillPool({ skills: listSkills(bundledWorkflow(), dir), env, program: SVC });
});
afterEach(async () => {
  await pool.close();
  removeDir(dir);
});

describe('claim_evidence_hard_gate served by svc skill serve evaluator-skill', () => {
  test('strict final with a mismatch: the caller gets an error and the report is on disk', async () => {
    const out = await pool.call('claim_evidence_hard_gate', { checkpoint_dir: ckpt, phase: 'final', text: 'a speedup of 3.0' });
    expect(out).toEqual({ error: expect.stringMatching(/^claim_evidence_hard_gate blocks the final paper: 1 blocking error, the first: .+ \(see .+claim_evidence_hard_gate_final\.json; /) });
    const report = JSON.parse(readFileSync(join(ckpt, 'evaluation', 'claim_evidence_hard_gate_final.json'), 'utf8'));
    expect(report).toMatchObject({ should_block: true, status: 'fail' });
  });

  test('the draft phase answers with the report', async () => {
    const out = await pool.call('claim_evidence_hard_gate', { checkpoint_dir: ckpt, phase: 'draft', text: 'a speedup of 2.0' });
    expect(out).toEqual({ result: expect.objectContaining({ gate: 'claim_evidence_hard_gate', phase: 'draft', status: 'pass', should_block: false }) });
  });
});

describe('evidence_grounded_semantic_review served by svc skill serve evaluator-skill', () => {
  test("the paper's claims reviewed by the eval model; the record is on disk, and an unreachable model is the record's status, not an error", async () => {
    copyFileSync(join(import.meta.dir, '../fixtures/science-data/sorting.json'), join(ckpt, 'science_data.json'));
    mkdirSync(join(ckpt, 'paper'));
    const claim = 'Shell sort always needs \\svcclaim{best.comparisons}{20{,}573} comparisons.';
    writeFileSync(join(ckpt, 'paper', 'main.tex'), `\\documentclass{article}\n\\begin{document}\n\\section{Introduction}\n${claim}\n\\end{document}\n`);
    const server = startModelServer([], { respond: (b) => researcherReply(b as OpenAIChatRequest) });
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_CHECKPOINT_DIR: ckpt, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'eval-model', SVC_LLM_MAX_RETRIES: '0' };
    const served = new SkillPool({ skills: listSkills(bundledWorkflow(), dir), env, program: SVC });
    try {
      const out = (await served.call('evidence_grounded_semantic_review', { tex_path: 'paper/main.tex' })) as { result: Record<string, unknown> };
      expect(out.result).toMatchObject({ status: 'ok', counts: { supported: 0, overstated: 1, unsupported: 0 }, findings: [expect.objectContaining({ key: 'best.comparisons', evidence: expect.objectContaining({ value: 20573 }) })] });
      expect(JSON.parse(readFileSync(join(ckpt, 'evaluation', 'evidence_grounded_semantic_review.json'), 'utf8'))).toMatchObject({ status: 'ok', issues: [expect.stringMatching(/^\[introduction\] /)] });
      server.stop();
      const down = (await served.call('evidence_grounded_semantic_review', { tex_path: 'paper/main.tex', phase: 'post_refine' })) as { result: Record<string, unknown> };
      expect(down.result).toMatchObject({ status: 'unavailable', reason: expect.stringMatching(/^no model backend reachable /) });
    } finally {
      server.stop();
      await served.close();
    }
  });
});

describe('claim_evidence_hard_gate on a paper, served', () => {
  test('a paper whose numbers match passes the strict final gate; the report names the paper', async () => {
    writeFileSync(join(ckpt, 'paper.tex'), '\\documentclass{article}\n\\begin{document}\n\\begin{abstract}\nShell sort gives a speedup of 2.0.\n\\end{abstract}\n\\end{document}\n');
    const out = await pool.call('claim_evidence_hard_gate', { checkpoint_dir: ckpt, phase: 'final', tex_path: 'paper.tex' });
    expect(out).toEqual({ result: expect.objectContaining({ status: 'pass', should_block: false, tex_path: join(ckpt, 'paper.tex'), tex_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }) });
  });

  test('an unanchored number in the abstract blocks the strict final gate', async () => {
    writeFileSync(join(ckpt, 'paper.tex'), '\\documentclass{article}\n\\begin{document}\n\\begin{abstract}\nEach sort takes 3.7 ms.\n\\end{abstract}\n\\end{document}\n');
    const out = await pool.call('claim_evidence_hard_gate', { checkpoint_dir: ckpt, phase: 'final', tex_path: 'paper.tex' });
    expect(out).toEqual({ error: expect.stringMatching(/^claim_evidence_hard_gate blocks the final paper: 1 blocking error, the first: 3\.7 \(paper\.tex line 4, abstract, strict section\) has no claim anchor/) });
  });
});
