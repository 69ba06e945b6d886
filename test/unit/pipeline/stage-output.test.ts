import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordedPages, recordPages } from '../../../src/core/checkpoint/paper.ts';
import { keepStageOutput } from '../../../src/pipeline/stage-output.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

const read = (name: string) => readFileSync(join(dir, name), 'utf8');
/** A file big enough to be a compiled paper. */
function pdf(name: string): string {
  writeFileSync(join(dir, name), `%PDF-1.5\n${'x'.repeat(2000)}`);
  return join(dir, name);
}

describe('a stage output the tool did not write', () => {
  test('.tex: the LaTeX of the result, its bibliography beside it as refs.bib, its PDF beside it', () => {
    const built = pdf('build.pdf');
    expect(keepStageOutput(join(dir, 'full_paper.tex'), { latex: '\\documentclass{article}', bib: '@misc{a}', pdf_path: built }, 'write_paper', dir)).toBeNull();
    expect(read('full_paper.tex')).toBe('\\documentclass{article}');
    expect(read('refs.bib')).toBe('@misc{a}');
    expect(read('full_paper.pdf')).toBe(read('build.pdf'));
    expect(keepStageOutput(join(dir, 'other.tex'), '\\documentclass{article}', 'write_paper', dir)).toBeNull();
    expect(read('other.tex')).toBe('\\documentclass{article}');
  });

  test('.tex without LaTeX: the stage fails, the result kept in _debug_<stage>.json, no .tex written', () => {
    expect(keepStageOutput(join(dir, 'full_paper.tex'), { sections: [] }, 'write_paper', dir)).toBe(`the tool returned no LaTeX for ${join(dir, 'full_paper.tex')} (its result is in _debug_write_paper.json)`);
    expect(JSON.parse(read('_debug_write_paper.json'))).toEqual({ sections: [] });
    expect(existsSync(join(dir, 'full_paper.tex'))).toBe(false);
  });

  test("a copied PDF takes the page count its compile recorded, counted for the copy", () => {
    const built = pdf('main.pdf');
    recordPages(built, 3);
    expect(keepStageOutput(join(dir, 'full_paper.tex'), { latex: '\\documentclass{article}', pdf_path: built }, 'write_paper', dir)).toBeNull();
    expect(recordedPages(join(dir, 'full_paper.pdf'))).toBe(3);
    // a PDF without a record gives its copy none
    const other = pdf('other.pdf');
    expect(keepStageOutput(join(dir, 'copy.pdf'), { pdf_path: other }, 'render_paper', dir)).toBeNull();
    expect(recordedPages(join(dir, 'copy.pdf'))).toBeNull();
  });

  test('.pdf: a copy of the PDF the result names; none, or a stub too small to be a paper, fails the stage', () => {
    const built = pdf('main.pdf');
    expect(keepStageOutput(join(dir, 'full_paper.pdf'), { pdf_path: built, pages: 1 }, 'render_paper', dir)).toBeNull();
    expect(read('full_paper.pdf')).toBe(read('main.pdf'));
    writeFileSync(join(dir, 'stub.pdf'), '%PDF');
    expect(keepStageOutput(join(dir, 'x.pdf'), { pdf_path: join(dir, 'stub.pdf') }, 'render_paper', dir)).toContain('the tool returned no PDF');
    expect(keepStageOutput(join(dir, 'x.pdf'), { pages: 1 }, 'render_paper', dir)).toContain('the tool returned no PDF');
    expect(existsSync(join(dir, 'x.pdf'))).toBe(false);
  });

  test('anything else: text as it is, other values as JSON', () => {
    expect(keepStageOutput(join(dir, 'notes.md'), '# notes', 's', dir)).toBeNull();
    expect(read('notes.md')).toBe('# notes');
    expect(keepStageOutput(join(dir, 'check.json'), { pdf_path: pdf('p.pdf'), passes: true }, 's', dir)).toBeNull();
    expect(JSON.parse(read('check.json'))).toEqual({ pdf_path: join(dir, 'p.pdf'), passes: true });
  });
});
