import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PaperRecord } from '../../../../src/ideas/papers.ts';
import { compileLatex } from '../../../../src/paper/compile.ts';
import { parseLibrary } from '../../../../src/ideas/library.ts';
import { bibEntry, bibFile, citeKeys } from '../../../../src/references/bibtex.ts';
import { latexText } from '../../../../src/paper/latex-text.ts';
import { lacks } from '../../../support/components.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

const paper = (over: Partial<PaperRecord>): PaperRecord => ({ title: 'A Title', abstract: '', url: '', authors: [], year: null, venue: '', doi: '', arxiv_id: '', ...over });

/** Titles and names as providers send them: every character LaTeX or BibTeX reads specially, accents, Greek, symbols, scripts no font here has. */
const HOSTILE: PaperRecord[] = [
  paper({ title: 'Attention Is All You Need', authors: ['Ashish Vaswani', 'Noam Shazeer'], year: 2017, venue: 'NeurIPS', url: 'https://www.semanticscholar.org/paper/204e3073870fae3d05bcbc2f6a8e263d9b72e776', arxiv_id: '1706.03762' }),
  paper({ title: 'Attention Is Not Explanation', authors: ['Sarthak Jain'], year: 2017, doi: '10.18653/v1/N19-1357' }),
  paper({ title: 'Attention Is Not Explanation', authors: ['Sarthak Jain'], year: 2017 }),
  paper({ title: '50% faster $O(n \\log n)$ sorting with {braces}, #hashtags, a_b, x^2, ~tilde & more | "quotes" <tags>', authors: ['Jürgen Schmidhuber', 'Łukasz Kaiser', 'François Chollet', 'Dvořák, Antonín'], year: 2020 }),
  paper({ title: 'α-entmax: Sparse Σ-attention ≤ 1 — “fast” … naïve café Straße', authors: ['Ærø Øster', 'Ðuro Þór', 'Ngô Bảo Châu', 'Tom and Jerry'], year: 2021, venue: 'ICML & ICLR % workshop' }),
  paper({ title: '深層学習による画像認識 🙂 (Deep learning image recognition)', authors: ['山田 太郎'], year: 2019 }),
  paper({ title: 'Untitled authorless note', authors: [], year: null, arxiv_id: 'hep-th/9901001' }),
  paper({ title: 'Many Authors', authors: Array.from({ length: 14 }, (_, i) => `Author Number${i}`), year: 2022, url: 'https://example.org/a_b?c=d&e%20f' }),
  paper({ title: 'The Unreasonable Effectiveness', authors: ['Lab 3M'], year: 2018, doi: '10.1000/<bad>_doi' }),
];

/** The demo's library, as the library reader gives it: entries written as they stand, under their own keys. */
const LIBRARY = parseLibrary(readFileSync(join(import.meta.dir, '../../../../examples/demo/library.bib'), 'utf8'), 'library.bib').map((e) => e.record);

describe('cite keys', () => {
  test('surname, year and first telling title word; lower-case ASCII; each key once', () => {
    const keys = citeKeys(HOSTILE);
    expect(keys.slice(0, 4)).toEqual(['vaswani2017attention', 'jain2017attention', 'jain2017attentionb', 'schmidhuber2020faster']);
    expect(keys[5]).toBe('anon2019deep');
    expect(keys[6]).toBe('anonnduntitled');
    expect(keys[8]).toBe('anon3m2018unreasonable');
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) expect(k).toMatch(/^[a-z][a-z0-9]*$/);
  });

  test("a library paper keeps its own key; a made key steers clear of it, and of a library key that differs only in case", () => {
    const own = (key: string, title: string) => paper({ title, authors: ['Donald L. Shell'], year: 1959, library: { key, type: 'article', fields: [['title', title]] } });
    const keys = citeKeys([paper({ title: 'High-Speed Sorting', authors: ['Donald Shell'], year: 1959 }), own('shell1959high', 'A High-Speed Sorting Procedure'), own('Shell1959High', 'Another'), own('My:Key-1', 'Third')]);
    expect(keys).toEqual(['shell1959highb', 'shell1959high', 'shell1959another', 'My:Key-1']);
    const bib = bibFile([own('shell1959high', 'A High-Speed Sorting Procedure'), paper({ title: 'Other' })], ['shell1959high', 'anonndother']).text;
    expect(bib).toContain('@article{shell1959high,\n  key = {shell1959high},\n  title = {A High-Speed Sorting Procedure}\n}\n');
    expect(bib).toContain('@misc{anonndother,');
  });
});

describe('entries', () => {
  test('escaped text, braced title, the venue or arXiv id as howpublished; url and doi only when safe', () => {
    const [e] = [bibEntry(HOSTILE[0] as PaperRecord, 'k')];
    expect(e.entry).toBe(
      '@misc{k,\n  author = {Ashish Vaswani and Noam Shazeer},\n  title = {{Attention Is All You Need}},\n  howpublished = {NeurIPS},\n  year = {2017},\n  url = {https://www.semanticscholar.org/paper/204e3073870fae3d05bcbc2f6a8e263d9b72e776}\n}\n',
    );
    const hostile = bibEntry(HOSTILE[3] as PaperRecord, 'h').entry;
    expect(hostile).toContain('title = {{50\\% faster \\$O(n \\textbackslash{}log n)\\$ sorting with \\textbraceleft{}braces\\textbraceright{}, \\#hashtags, a\\_b, x\\textasciicircum{}2, \\textasciitilde{}tilde \\& more \\textbar{} \'\'quotes\'\' \\textless{}tags\\textgreater{}}}');
    expect(hostile).toContain('author = {J{\\"{u}}rgen Schmidhuber and {\\L}ukasz Kaiser and Fran{\\c{c}}ois Chollet and Anton{\\\'{\\i}}n Dvo{\\v{r}}{\\\'{a}}k}');
    expect(bibEntry(HOSTILE[4] as PaperRecord, 'g').entry).toContain('author = {{\\AE}r{\\o} {\\O}ster and Duro Th{\\\'{o}}r and Ng{\\^{o}} B{a}o Ch{\\^{a}}u and Tom {and} Jerry}');
    const anon = bibEntry(HOSTILE[6] as PaperRecord, 'n').entry;
    expect(anon).toBe('@misc{n,\n  key = {n},\n  title = {{Untitled authorless note}},\n  howpublished = {arXiv preprint arXiv:hep-th/9901001},\n  year = {n.d.}\n}\n');
    expect(bibEntry(HOSTILE[7] as PaperRecord, 'm').entry).toContain('Author Number9 and others},');
    expect(bibEntry(HOSTILE[7] as PaperRecord, 'm').entry).not.toContain('url =');
    expect(bibEntry(HOSTILE[8] as PaperRecord, 'd').entry).not.toContain('doi =');
    expect(bibEntry(HOSTILE[1] as PaperRecord, 'j').entry).toContain('doi = {10.18653/v1/N19-1357}');
  });

  test('characters no command stands for are counted as dropped; the file is plain ASCII', () => {
    expect(latexText('東京 🙂 ok')).toEqual({ latex: 'ok', dropped: 3 });
    const { text, dropped } = bibFile(HOSTILE, citeKeys(HOSTILE));
    // 11 + 1 characters of the Japanese title, 4 of its author's name, and the hook above of Bảo
    expect(dropped).toBe(17);
    expect(/^[\x20-\x7e\n]*$/.test(text)).toBe(true);
  });
});

describe.skipIf(lacks('latex'))('refs.bib compiles with real BibTeX', () => {
  const dir = tempDir('svc-bib-');
  afterAll(() => removeDir(dir));
  const keys = citeKeys([...HOSTILE, ...LIBRARY]);
  writeFileSync(join(dir, 'refs.bib'), bibFile([...HOSTILE, ...LIBRARY], keys).text);
  test("the library's entries are there under their own keys", () => {
    expect(keys.slice(HOSTILE.length)).toEqual(['shell1959', 'hibbard1963', 'pratt1972', 'incerpi1985', 'sedgewick1996', 'knuth1998', 'jiang2000', 'ciura2001']);
  });

  for (const [style, preamble] of [
    ['plain', ''],
    ['plainnat', '\\usepackage[numbers]{natbib}\n'],
    ['plainnat', '\\usepackage[numbers]{natbib}\n\\usepackage{hyperref}\n'],
  ] as const) {
    test(`every key cited, style ${style}${preamble.includes('hyperref') ? ' with hyperref' : ''}: no BibTeX error or warning, no LaTeX error`, async () => {
      const name = `doc-${style}-${preamble.includes('hyperref') ? 'h' : 'n'}`;
      writeFileSync(join(dir, `${name}.tex`), `\\documentclass{article}\n${preamble}\\begin{document}\nRelated work \\cite{${keys.join(',')}}.\n\\bibliographystyle{${style}}\n\\bibliography{refs}\n\\end{document}\n`);
      const r = await compileLatex(join(dir, `${name}.tex`), { env: process.env });
      expect(r.ok ? 'ok' : `${r.error}\n${r.logTail.join('\n')}`).toBe('ok');
      const blg = readFileSync(join(dir, `${name}.blg`), 'utf8');
      expect(blg).not.toMatch(/Warning--|error message|I was expecting|I'm skipping/);
      expect(blg).toMatch(/\(There were no|Database file #1: refs\.bib/);
      const bbl = readFileSync(join(dir, `${name}.bbl`), 'utf8');
      for (const k of keys) expect(bbl).toContain(`{${k}}`);
      const log = readFileSync(join(dir, `${name}.log`), 'utf8');
      expect(log).not.toMatch(/Citation `[^']+' .*undefined|Unicode character|^! /m);
    }, 60_000);
  }
});
