import { describe, expect, test } from 'bun:test';
import { linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listUploadedFilesTool, readUploadedFileTool } from '../../../../src/skills/web/uploads.ts';
import { lacks } from '../../../support/components.ts';
import { rejection } from '../../llm/helpers.ts';
import { callTool } from '../coding/tool-call.ts';
import { webSandbox } from './web-fixture.ts';

const { box, env } = webSandbox();
const uploads = () => join(box().checkpoint, 'uploads');
const list = (e = env()) => callTool(listUploadedFilesTool, {}, e);
const read = (args: Record<string, unknown>, e = env()) => callTool(readUploadedFileTool, args, e);

function put(rel: string, data: string | Uint8Array): void {
  const path = join(uploads(), rel);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, data);
}

/** A two-page PDF compiled here, so pdftotext reads what pdflatex really writes. */
function makePdf(): Uint8Array {
  const dir = join(box().dir, 'tex');
  mkdirSync(dir);
  writeFileSync(join(dir, 'notes.tex'), '\\documentclass{article}\\begin{document}Baseline: 1200 comparisons.\\newpage Tuned: 40 comparisons.\\end{document}\n');
  const r = Bun.spawnSync(['pdflatex', '-interaction=nonstopmode', 'notes.tex'], { cwd: dir, stdout: 'ignore', stderr: 'ignore' });
  if (r.exitCode !== 0) throw new Error('pdflatex failed');
  return readFileSync(join(dir, 'notes.pdf'));
}

describe('list_uploaded_files', () => {
  test('the files of uploads/, sub-directories included, without secrets, hard links, links out or temp files', async () => {
    put('data.csv', 'a,b\n1,2\n');
    put('docs/spec.md', '# Spec\n');
    put('.env', 'KEY=secret');
    put('keys/id_rsa', 'PRIVATE');
    put('.data.csv.tmp', 'half');
    writeFileSync(join(box().dir, 'outside.txt'), 'outside');
    symlinkSync(join(box().dir, 'outside.txt'), join(uploads(), 'link-out.txt'));
    symlinkSync(join(uploads(), 'data.csv'), join(uploads(), 'link-in.csv'));
    linkSync(join(box().dir, 'outside.txt'), join(uploads(), 'hard.txt'));
    const r = await list();
    expect(r.files.map((f: { name: string }) => f.name)).toEqual(['data.csv', 'docs/spec.md', 'link-in.csv']);
    expect(r.files[0]).toEqual({ name: 'data.csv', size: 8, modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(r.total).toBe(3);
    expect(r.note).toBeUndefined();
  });

  test('no uploads: an empty list and a note', async () => {
    expect(await list()).toEqual({ files: [], total: 0, note: 'no files were uploaded for this run' });
  });

  test('without SVC_CHECKPOINT_DIR it is an error saying so', async () => {
    const e = env();
    delete e.SVC_CHECKPOINT_DIR;
    expect((await rejection(list(e))).message).toBe('SVC_CHECKPOINT_DIR is not set, so there are no uploads to read');
  });
});

describe('read_uploaded_file', () => {
  test('a text file, whole or cut at max_chars', async () => {
    put('docs/spec.md', '# Spec\nSort 1000 numbers.\n');
    expect(await read({ filename: 'docs/spec.md' })).toEqual({ filename: 'docs/spec.md', size: 26, kind: 'text', text: '# Spec\nSort 1000 numbers.\n', chars: 26, truncated: false });
    expect(await read({ filename: 'docs/spec.md', max_chars: 6 })).toMatchObject({ text: '# Spec', chars: null, truncated: true });
    put('big.txt', 'x'.repeat(5000));
    // a file longer than the bytes read is cut without counting the rest
    expect(await read({ filename: 'big.txt', max_chars: 10 })).toMatchObject({ text: 'xxxxxxxxxx', chars: null, truncated: true });
  });

  test.skipIf(lacks('latex') || lacks('poppler'))('a PDF is read with pdftotext, page by page', async () => {
    put('notes.pdf', makePdf());
    const r = await read({ filename: 'notes.pdf' });
    expect(r).toMatchObject({ filename: 'notes.pdf', kind: 'pdf', pages: 2, truncated: false });
    expect(r.text).toContain('Baseline: 1200 comparisons.');
    expect(r.text).toContain('Tuned: 40 comparisons.');
    // known by its first bytes too, whatever its name
    put('paper.bin', makePdfCopy());
    expect((await read({ filename: 'paper.bin' })).kind).toBe('pdf');
    expect((await read({ filename: 'notes.pdf', max_chars: 8 })).text).toBe('Baseline');
  });

  test.skipIf(lacks('latex'))('pdftotext missing: an error naming the package to install', async () => {
    put('notes.pdf', makePdf());
    const err = await rejection(read({ filename: 'notes.pdf' }, env({ PATH: join(box().dir, 'empty-bin') })));
    expect(err.message).toBe('pdftotext is not installed (not found on PATH), so the text of uploads/notes.pdf cannot be read');
    expect((err as { hint?: string }).hint).toBe('install it: apt-get install poppler-utils');
  });

  test.skipIf(lacks('poppler'))('a damaged PDF is an error saying what pdftotext found', async () => {
    put('broken.pdf', '%PDF-1.5\nnot really a pdf\n');
    expect((await rejection(read({ filename: 'broken.pdf' }))).message).toMatch(/^pdftotext could not read uploads\/broken\.pdf: Syntax Error/);
  });

  test('a binary file has no text', async () => {
    put('blob.bin', new Uint8Array([1, 2, 0, 3]));
    expect(await read({ filename: 'blob.bin' })).toEqual({ filename: 'blob.bin', size: 4, kind: 'binary', text: '', chars: 0, truncated: false, note: 'a binary file: it has no text to show' });
  });

  test('paths out of uploads/, secrets, links out, hard links, directories and missing files are refused', async () => {
    put('data.csv', 'a\n');
    put('.env', 'KEY=1');
    writeFileSync(join(box().checkpoint, 'tree.json'), '{}');
    writeFileSync(join(box().dir, 'outside.txt'), 'outside');
    symlinkSync(join(box().dir, 'outside.txt'), join(uploads(), 'link-out.txt'));
    linkSync(join(box().checkpoint, 'tree.json'), join(uploads(), 'hard.json'));
    mkdirSync(join(uploads(), 'dir'));
    const cases: [string, RegExp][] = [
      ['../tree.json', /^uploaded file '\.\.\/tree\.json' is outside .*\/uploads$/],
      ['dir/../../tree.json', /is outside/],
      ['/etc/passwd', /^'\/etc\/passwd' is an absolute path$/],
      ['link-out.txt', /^uploaded file 'link-out\.txt' is outside/],
      ['.env', /^'\.env' holds secrets and is not served$/],
      ['hard.json', /^'hard\.json' is a hard link/],
      ['dir', /^'dir' is a directory in uploads\/$/],
      ['nope.txt', /^no uploaded file 'nope\.txt'$/],
      ['', /^no file name given$/],
      ['a\0b', /NUL byte/],
    ];
    for (const [filename, message] of cases) expect([filename, (await rejection(read({ filename }))).message]).toEqual([filename, expect.stringMatching(message)]);
    expect((await rejection(read({ filename: 'data.csv', max_chars: 0 }))).message).toBe('read_uploaded_file: max_chars must be an integer from 1 to 1000000, got 0');
  });

  test('uploads/ itself linked out of the checkpoint is refused', async () => {
    mkdirSync(join(box().dir, 'elsewhere'));
    writeFileSync(join(box().dir, 'elsewhere', 'x.txt'), 'x');
    symlinkSync(join(box().dir, 'elsewhere'), uploads());
    expect((await rejection(list())).message).toMatch(/^the uploads directory 'uploads' is outside /);
    expect((await rejection(read({ filename: 'x.txt' }))).message).toMatch(/^the uploads directory 'uploads' is outside /);
  });
});

/** The same PDF under a name that does not say so. */
function makePdfCopy(): Uint8Array {
  return readFileSync(join(box().dir, 'tex', 'notes.pdf'));
}
