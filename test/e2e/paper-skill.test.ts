import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import { lacks } from '../support/components.ts';
import { pdfText, REFS_BIB } from '../support/paper.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

// paper-skill served by dist/svc, as a run calls it; the skill process starts in a directory with
// nothing of the repository, so the templates it hands out come from inside the binary
const dir = tempDir();
const ckpt = join(dir, 'ckpt');
const SHA = '5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592';
let pool: SkillPool;
let cwd: string;

beforeAll(() => {
  mkdirSync(join(ckpt, 'ear_published'), { recursive: true });
  writeFileSync(join(ckpt, 'ear_published', 'manifest.lock'), JSON.stringify({ bundle_sha256: SHA, files: [], publish: { license: 'Apache-2.0' } }));
  cwd = process.cwd();
  process.chdir(dir);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_CHECKPOINT_DIR: ckpt };
  pool = new SkillPool({ skills: listSkills(bundledWorkflow(), dir), env, program: SVC });
});
afterAll(async () => {
  await pool.close();
  process.chdir(cwd);
  removeDir(dir);
});

/** The result of a call that must succeed. */
async function result(tool: string, args: Record<string, unknown>): Promise<any> {
  const out = await pool.call(tool, args, { skill: 'paper-skill' });
  if ('error' in out) throw new Error(`${tool}: ${out.error}`);
  return out.result;
}

/** A paper as a writer makes one: the venue's template, its slots filled. */
function fill(template: string, body: string): string {
  const parts: Record<string, string> = { title: 'Sorting with Fewer Comparisons', authors: 'Ada Lovelace', abstract: 'We sort.', body, bibliography: 'refs' };
  return template.replace(/<<(\w+)>>/g, (_, slot: string) => parts[slot] ?? '');
}

describe('paper-skill through its server', () => {
  test('serves the paper tools in the paper phase', async () => {
    const tools = (await pool.tools('paper')).filter((t) => t.skill === 'paper-skill').map((t) => t.name);
    expect(tools).toEqual(['list_venues', 'get_template', 'generate_section', 'review_section', 'revise_section', 'write_paper_iterative', 'compile_paper', 'check_format', 'inject_code_availability', 'review_compiled_paper', 'merge_reviews', 'link_paper_claims', 'paper_refine', 'finalize_paper', 'list_rubrics']);
    expect((await pool.tools('bfts')).some((t) => t.skill === 'paper-skill')).toBe(false);
  });

  test('list_venues and get_template; an unknown venue is one line listing the known ones', async () => {
    const { venues } = await result('list_venues', {});
    expect(venues.map((v: { venue: string; page_limit: number | null }) => [v.venue, v.page_limit])).toEqual([
      ['neurips', 9],
      ['icpp', 10],
      ['sc', 12],
      ['isc', 12],
      ['arxiv', null],
      ['acm', 10],
    ]);
    const t = await result('get_template', { venue: 'neurips' });
    expect(t).toMatchObject({ venue: 'neurips', page_limit: 9, document_class: 'article', slots: ['title', 'authors', 'abstract', 'body', 'bibliography'] });
    expect(t.template).toContain('\\newcommand{\\svcclaim}[2]{#2}');
    expect(t.template).toContain('textwidth=5.5in,textheight=9in');
    expect((await result('get_template', { venue: 'icpp' })).template).toStartWith('\\documentclass[sigconf]{acmart}');
    expect(await pool.call('get_template', { venue: 'iclr' })).toEqual({ error: "unknown venue 'iclr' (known: neurips, icpp, sc, isc, arxiv, acm)" });
    expect(await pool.call('compile_paper', {})).toEqual({ error: "compile_paper: missing argument 'tex_dir'" });
  });

  test.skipIf(lacks('venues') || lacks('pdftools'))('a paper from a template: compiled, checked, its code availability stated once', async () => {
    const paper = join(ckpt, 'paper');
    mkdirSync(paper);
    const { template } = await result('get_template', { venue: 'sc' });
    writeFileSync(join(paper, 'main.tex'), fill(template, '\\section{Results}\nSorting \\cite{knuth1998} took \\svcclaim{best.comparisons}{30{,}850} comparisons.\n'));
    writeFileSync(join(paper, 'refs.bib'), REFS_BIB);

    const inject = await result('inject_code_availability', { tex_path: 'paper/main.tex' });
    expect(inject).toMatchObject({ tex_path: join(paper, 'main.tex'), replaced: false, ref: null, sha256: SHA, doi: null, license_id: 'Apache-2.0' });
    const once = readFileSync(join(paper, 'main.tex'), 'utf8');
    expect((await result('inject_code_availability', { tex_path: join(paper, 'main.tex') })).replaced).toBe(true);
    expect(readFileSync(join(paper, 'main.tex'), 'utf8')).toBe(once);

    const built = await result('compile_paper', { tex_dir: 'paper' });
    expect(built).toMatchObject({ pdf_path: join(paper, 'main.pdf'), pages: 1 });
    expect(pdfText(built.pdf_path)).toContain('Sorting with Fewer Comparisons');
    const report = await result('check_format', { venue: 'sc', pdf_path: built.pdf_path });
    expect(report).toEqual({ venue: 'sc', pdf_path: built.pdf_path, pages: 1, content_pages: 1, page_limit: 12, passes: true, findings: [] });
  });

  test.skipIf(lacks('venues'))('a LaTeX error fails the call with the first ! line and its file and line', async () => {
    const paper = join(ckpt, 'broken');
    mkdirSync(join(paper, 'sections'), { recursive: true });
    const { template } = await result('get_template', { venue: 'arxiv' });
    writeFileSync(join(paper, 'paper.tex'), fill(template, '\\input{sections/method}\n'));
    writeFileSync(join(paper, 'sections', 'method.tex'), '\\section{Method}\nWe use \\sortfaster{} here.\n');
    writeFileSync(join(paper, 'refs.bib'), REFS_BIB);
    expect(await pool.call('compile_paper', { tex_dir: paper, main_file: 'paper.tex' })).toEqual({
      error: 'LaTeX failed at sections/method.tex:2: ! Undefined control sequence. (TeX stopped at: We use \\sortfaster)',
    });
  });
});
