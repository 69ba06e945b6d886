// LaTeX: latexmk, pdflatex, bibtex and the venue classes (kpsewhich), needed only when the paper
// stages are enabled. Against the real TeX Live and a PATH without it.
import { afterAll, describe, expect, test } from 'bun:test';
import { checkLatex } from '../../../src/doctor/latex.ts';
import { lacks } from '../../support/components.ts';
import { pathWith, removePathDirs } from '../../support/container.ts';
import { NO_PIPELINE, project, removeBoxes } from './helpers.ts';

afterAll(() => {
  removeBoxes();
  removePathDirs();
});

/** One enabled paper stage writing for `venue`. */
const paperFor = (venue: string) => `pipeline:\n  - { stage: write_paper, skill: paper-skill, tool: write_paper_iterative, inputs: { venue: ${venue} }, enabled: true }\n`;

describe('checkLatex', () => {
  test('without TeX on PATH and the paper stages on, each program fails with the install fix', async () => {
    const { cfg } = project({ PATH: pathWith([]) });
    const rows = await checkLatex(cfg);
    expect(rows.map((r) => [r.item, r.status, r.needed])).toEqual([
      ['latexmk', 'fail', true],
      ['pdflatex', 'fail', true],
      ['bibtex', 'fail', true],
      ['kpsewhich', 'fail', true],
    ]);
    expect(rows[0]?.fix).toBe('install it: apt-get install latexmk texlive-latex-base');
  });

  test('without TeX and with the paper stages off, it is only a warning', async () => {
    const { cfg } = project({ PATH: pathWith([]) }, NO_PIPELINE);
    const rows = await checkLatex(cfg);
    expect(rows.every((r) => r.status === 'warn' && !r.needed)).toBe(true);
    expect(rows[0]?.detail).toBe('latexmk is not on PATH; the paper stages are off');
  });

  test.skipIf(lacks('latex'))('the real TeX Live: the programs and the class of the bundled venue (arxiv: article)', async () => {
    const { cfg } = project();
    const rows = await checkLatex(cfg);
    expect(rows.map((r) => [r.item, r.status])).toEqual([
      ['latexmk', 'ok'],
      ['pdflatex', 'ok'],
      ['bibtex', 'ok'],
      ['article.cls', 'ok'],
    ]);
    expect(rows[3]?.detail).toMatch(/\/article\.cls \(venue arxiv\)$/);
  });

  test.skipIf(lacks('venues'))('the class of each venue the paper stages use is looked up', async () => {
    const { cfg } = project({}, paperFor('sc'));
    const row = (await checkLatex(cfg)).find((r) => r.item === 'IEEEtran.cls');
    expect(row).toMatchObject({ status: 'ok', needed: true });
  });

  test.skipIf(lacks('latex'))('a class TeX does not find fails with the Debian package that has it', async () => {
    // kpsewhich with an empty search path finds no class at all
    const { cfg } = project({ TEXINPUTS: '/nonexistent', TEXMFDIST: '/nonexistent', TEXMFMAIN: '/nonexistent', TEXMFLOCAL: '/nonexistent', TEXMFHOME: '/nonexistent', TEXMFVAR: '/nonexistent', TEXMFSYSVAR: '/nonexistent', TEXMFCONFIG: '/nonexistent', TEXMFSYSCONFIG: '/nonexistent' }, paperFor('sc'));
    const row = (await checkLatex(cfg)).find((r) => r.item === 'IEEEtran.cls');
    expect(row).toMatchObject({ status: 'fail', needed: true, fix: 'install it: apt-get install texlive-publishers' });
  });
});
