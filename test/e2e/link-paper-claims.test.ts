import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import { type GateRun, gatePaper, writeGateRun } from '../support/claim-gate-paper.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

// link_paper_claims served by dist/svc's paper skill, as a pipeline stage calls it
let dir: string;
let run: GateRun;
let pool: SkillPool;

beforeAll(() => {
  dir = tempDir();
  run = writeGateRun(dir);
  mkdirSync(join(run.ckpt, 'paper'));
  writeFileSync(join(run.ckpt, 'paper', 'main.tex'), gatePaper({ abstract: 'Each sort takes 3.7 ms.' }));
  writeFileSync(join(dir, 'secret.tex'), gatePaper());
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_CHECKPOINT_DIR: run.ckpt };
  pool = new SkillPool({ skills: listSkills(bundledWorkflow(), dir), env, program: SVC });
});
afterAll(async () => {
  await pool.close();
  removeDir(dir);
});

describe('link_paper_claims served by svc skill serve paper-skill', () => {
  test('the paper phase lists it; a call writes the links and answers with them', async () => {
    expect((await pool.tools('paper')).some((t) => t.skill === 'paper-skill' && t.name === 'link_paper_claims')).toBe(true);
    const out = await pool.call('link_paper_claims', { tex_path: 'paper/main.tex', phase: 'final' }, { skill: 'paper-skill' });
    if ('error' in out) throw new Error(out.error);
    const links = out.result as any;
    expect(links.links_path).toBe(join(run.ckpt, 'paper_claim_links_final.json'));
    expect(JSON.parse(readFileSync(links.links_path, 'utf8')).tex_sha256).toBe(links.tex_sha256);
    expect(links.summary).toMatchObject({ anchors: 4, resolved_anchors: 4, uncovered: 4 });
    expect(links.numbers.find((n: { text: string }) => n.text === '3.7')).toMatchObject({ section: 'abstract', class: 'strict', status: 'uncovered' });
  });

  test('a tex_path outside the checkpoint: an error naming it, and nothing written', async () => {
    removeDir(join(run.ckpt, 'paper_claim_links.json'));
    const before = readdirSync(run.ckpt).sort();
    const out = await pool.call('link_paper_claims', { tex_path: '../../../secret.tex' }, { skill: 'paper-skill' });
    expect(out).toEqual({ error: `tex_path '../../../secret.tex' is outside ${run.ckpt} (give a path inside it)` });
    expect(readdirSync(run.ckpt).sort()).toEqual(before);
    expect(existsSync(join(run.ckpt, 'paper_claim_links.json'))).toBe(false);
  });
});
