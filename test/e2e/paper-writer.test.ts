import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import { startModelServer } from '../support/model-server.ts';
import { researcherReply } from '../support/scripted-researcher.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

// write_paper_iterative's refusals, through the skill's server: each one line, and no paper written
const dir = tempDir();
const ckpt = join(dir, 'ckpt');
mkdirSync(ckpt, { recursive: true });
const server = startModelServer([], { respond: (b) => researcherReply(b as never) });
const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_CHECKPOINT_DIR: ckpt };
const withModel = new SkillPool({ skills: listSkills(bundledWorkflow(), dir), env: { ...base, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'scripted-researcher' }, program: SVC });
const noModel = new SkillPool({ skills: listSkills(bundledWorkflow(), dir), env: { ...base, SVC_BACKEND: 'openai-compatible', SVC_MODEL: '' }, program: SVC });
afterAll(async () => {
  await withModel.close();
  await noModel.close();
  server.stop();
  removeDir(dir);
});

const args = { experiment_summary: 'Shell sort', science_data_json: 'science_data.json', max_revision_rounds: 2 };
async function error(pool: SkillPool, tool: string, a: Record<string, unknown>): Promise<string> {
  const out = await pool.call(tool, a, { skill: 'paper-skill' });
  if (!('error' in out)) throw new Error(`${tool} did not fail: ${JSON.stringify(out.result).slice(0, 200)}`);
  return out.error;
}

test('without a model no paper is written, and the error says why', async () => {
  const e = await error(noModel, 'write_paper_iterative', args);
  expect(e).toContain('a paper cannot be written without a model');
  expect(e.split('\n').length).toBe(1);
  expect(existsSync(join(ckpt, 'paper'))).toBe(false);
}, 60_000);

test('bad inputs are refused in one line before any model call', async () => {
  expect(await error(withModel, 'write_paper_iterative', { ...args, max_revision_rounds: 9 })).toContain('max_revision_rounds must be an integer from 0 to 5, got 9');
  expect(await error(withModel, 'write_paper_iterative', args)).toContain(`no science data at ${join(ckpt, 'science_data.json')}`);
  writeFileSync(join(ckpt, 'science_data.json'), '{"schema_version": 1}');
  expect(await error(withModel, 'write_paper_iterative', args)).toMatch(/science_data\.json is not|science_data\.json: /);
  expect(await error(withModel, 'generate_section', { section: 'appendix', context: 'x' })).toContain("unknown section 'appendix'");
  expect(await error(withModel, 'review_section', { latex: ' ', context: 'x' })).toContain('latex is empty');
  expect(server.requests.filter((r) => r.path.endsWith('/chat/completions')).length).toBe(0);
  expect(existsSync(join(ckpt, 'paper'))).toBe(false);
}, 60_000);
