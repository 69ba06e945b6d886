import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_SKILLS, loadSkill } from '../../../../src/skills/catalog.ts';
import { checkFormatTool } from '../../../../src/skills/paper/check-format.ts';
import { injectCodeAvailabilityTool } from '../../../../src/skills/paper/code-availability.ts';
import { compilePaperTool } from '../../../../src/skills/paper/compile-paper.ts';
import { getTemplate } from '../../../../src/skills/paper/venue-tools.ts';
import { writePaper } from '../../../support/paper.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { callTool } from '../coding/tool-call.ts';
import { rejection } from '../../llm/helpers.ts';

const SHA = 'b'.repeat(64);
let dir: string;
let env: Record<string, string>;
beforeEach(() => {
  dir = tempDir();
  env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_CHECKPOINT_DIR: dir };
});
afterEach(() => removeDir(dir));


describe('paper-skill tools', () => {
  test('a built-in skill of the paper phase that uses the paper model, serving the writing and the deterministic paper tools', async () => {
    expect(BUILTIN_SKILLS.has('paper-skill')).toBe(true);
    const skill = await loadSkill('paper-skill');
    expect(skill?.phases).toEqual(['paper']);
    expect(skill?.usesModel).toBe(true);
    expect(skill?.tools.map((t) => t.name)).toEqual(['list_venues', 'get_template', 'generate_section', 'review_section', 'revise_section', 'write_paper_iterative', 'compile_paper', 'check_format', 'inject_code_availability', 'review_compiled_paper', 'merge_reviews', 'link_paper_claims', 'paper_refine', 'finalize_paper', 'list_rubrics']);
  });

  test('paths: absolute, or relative to the checkpoint; a relative one without a checkpoint is refused', async () => {
    const { SVC_CHECKPOINT_DIR: _, ...noCheckpoint } = env;
    expect((await rejection(callTool(compilePaperTool, { tex_dir: 'paper' }, noCheckpoint))).message).toBe("tex_dir 'paper' is relative and SVC_CHECKPOINT_DIR is not set");
    expect((await rejection(callTool(compilePaperTool, { tex_dir: 'paper' }, env))).message).toBe(`tex_dir '${join(dir, 'paper')}' is not a directory`);
    expect((await rejection(callTool(compilePaperTool, { tex_dir: '' }, env))).message).toBe('tex_dir is empty');
  });

  test('an unknown venue is refused before anything is read', async () => {
    expect((await rejection(callTool(getTemplate, { venue: 'icml' }, env))).message).toBe("unknown venue 'icml' (known: neurips, icpp, sc, isc, arxiv, acm)");
    expect((await rejection(callTool(checkFormatTool, { venue: 'icml', pdf_path: 'nope.pdf' }, env))).message).toStartWith("unknown venue 'icml'");
  });

  test("check_format: a checkpoint science_data.json that is not science data fails loud", async () => {
    writeFileSync(join(dir, 'science_data.json'), '{"schema_version": 2}');
    const err = await rejection(callTool(checkFormatTool, { venue: 'arxiv', pdf_path: 'paper/main.pdf' }, env));
    expect(err.message).toStartWith(`${join(dir, 'science_data.json')} is not valid science data: `);
  });

  test('inject_code_availability: given facts win over what the checkpoint knows; a checkpoint_dir that is not there is refused', async () => {
    const tex = writePaper(join(dir, 'paper'), 'arxiv');
    mkdirSync(join(dir, 'ear_published'));
    writeFileSync(join(dir, 'ear_published', 'manifest.lock'), JSON.stringify({ bundle_sha256: 'a'.repeat(64), files: [], publish: { license: 'MIT' } }));
    const out = await callTool(injectCodeAvailabilityTool, { tex_path: 'paper/main.tex', sha256: SHA, license_id: '' }, env);
    expect(out).toMatchObject({ tex_path: tex, sha256: SHA, license_id: null, ref: null, doi: null });
    expect(readFileSync(tex, 'utf8')).not.toContain('MIT license');
    expect((await rejection(callTool(injectCodeAvailabilityTool, { tex_path: tex, checkpoint_dir: join(dir, 'nope') }, env))).message).toBe(`checkpoint_dir '${join(dir, 'nope')}' is not a directory`);
    expect((await rejection(callTool(injectCodeAvailabilityTool, { tex_path: tex, sha256: 1 }, env))).message).toContain("argument 'sha256'");
  });
});
