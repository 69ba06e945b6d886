import { afterAll, describe, expect, test } from 'bun:test';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NotFoundError } from '../../../src/core/errors.ts';
import { compilePaper } from '../../../src/paper/compile.ts';
import { checkFormat } from '../../../src/paper/format-check.ts';
import { findVenue } from '../../../src/paper/venues.ts';
import type { ScienceData } from '../../../src/schema/science-data.ts';
import { lacks } from '../../support/components.ts';
import { PAPER_BODY, writePaper } from '../../support/paper.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const root = tempDir();
afterAll(() => removeDir(root));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root };
const DATA: ScienceData = {
  schema_version: 1,
  primary_metric: { name: 'comparisons', higher_is_better: false, unit: null },
  experiment_context: { goal: 'sort', idea: null, method_summary: '' },
  configurations: [],
  best: { node_id: 'node_b', value: 30850 },
  baseline: null,
  values: { 'best.comparisons': { value: 30850, metric: 'comparisons', node_id: 'node_b', what: 'comparisons of the best configuration' } },
};

/** A compiled paper for `venue`, in a directory of its own. */
async function compiled(name: string, venue: string, opts: Parameters<typeof writePaper>[2] = {}): Promise<string> {
  const dir = join(root, name);
  writePaper(dir, venue, opts);
  return (await compilePaper(dir, 'main.tex', env)).pdf_path;
}

const LONG_BODY = Array.from({ length: 14 }, (_, i) => `\\section{Part ${String.fromCharCode(65 + i)}}\n${'Sorting is the art of putting things in order, one comparison at a time. '.repeat(60)}\n`).join('\n');

describe.skipIf(lacks('venues') || lacks('pdftools'))('check_format on compiled papers', () => {
  test('a clean paper passes: its pages counted up to the references', async () => {
    const report = await checkFormat(findVenue('neurips'), await compiled('clean', 'neurips'), env, DATA);
    expect(report).toEqual({ venue: 'neurips', pdf_path: join(root, 'clean', 'main.pdf'), pages: 1, content_pages: 1, page_limit: 9, passes: true, findings: [] });
  });

  test('a long paper against the neurips limit of 9 pages fails; arxiv has no limit', async () => {
    const pdf = await compiled('long', 'neurips', { body: LONG_BODY });
    const report = await checkFormat(findVenue('neurips'), pdf, env, null);
    expect(report.content_pages).toBeGreaterThan(9);
    expect(report.passes).toBe(false);
    expect(report.findings).toEqual([{ check: 'page_limit', severity: 'error', message: `${report.content_pages} pages before the references, over neurips's limit of 9`, file: null, line: null }]);
    expect((await checkFormat(findVenue('arxiv'), pdf, env, null)).passes).toBe(true);
  });

  test('undefined references and citations are errors, with the file and line', async () => {
    const pdf = await compiled('undefined', 'sc', { body: `${PAPER_BODY}See Figure~\\ref{fig:missing} and \\cite{nosuch2020}.\n` });
    const report = await checkFormat(findVenue('sc'), pdf, env, DATA);
    expect(report.passes).toBe(false);
    expect(report.findings.filter((f) => f.check !== 'overfull_box')).toEqual([
      { check: 'undefined_reference', severity: 'error', message: "reference 'fig:missing' is undefined", file: 'main.tex', line: expect.any(Number) },
      { check: 'undefined_citation', severity: 'error', message: "citation 'nosuch2020' is undefined", file: 'main.tex', line: expect.any(Number) },
    ]);
  });

  test('a number without an anchor is a warning naming its file and line; the anchored one is not; a section file is read too', async () => {
    const pdf = await compiled('bare', 'arxiv', {
      body: `${PAPER_BODY}\\input{sections/results}\n`,
      files: { 'sections/results.tex': '\\section{Results}\nThe baseline needed 953,100 comparisons,\nabout 30.9 times more than \\svcclaim{best.comparisons}{30{,}850}.\n' },
    });
    const report = await checkFormat(findVenue('arxiv'), pdf, env, DATA);
    expect(report.passes).toBe(true);
    expect(report.findings.map((f) => [f.check, f.severity, f.file, f.line, f.message.split(' ')[0]])).toEqual([
      ['unanchored_number', 'warning', 'sections/results.tex', 2, '953,100'],
      ['unanchored_number', 'warning', 'sections/results.tex', 3, '30.9'],
    ]);
  });

  test("a setting of a configuration needs no anchor; a number in math or after a command's brackets does", async () => {
    const data: ScienceData = { ...DATA, configurations: [{ node_id: 'node_b', label: 'improve', name: 'Shell sort, gap ratio 2.25', depth: 1, params: { gap_ratio: 2.25, n: 2000 }, metrics: {}, parent_id: null } as unknown as ScienceData['configurations'][number]] };
    const body = `\\section{Results}\nShell sort, gap ratio 2.25, on n = 2000 elements.\nIt reached $0.93$ and \\textbf[42]{x}.\n`;
    const pdf = await compiled('settings', 'arxiv', { body });
    expect((await checkFormat(findVenue('arxiv'), pdf, env, data)).findings.map((f) => f.message.split(' ')[0])).toEqual(['0.93', '42']);
  });

  test('claim anchors: unfilled, naming an unknown key, or printing another value than science_data.json', async () => {
    const body = `\\section{Results}\n\\svcclaim{best.comparisons}{31{,}000} and \\svcclaim{best.time} and \\svcclaim{node_x.y}{2}.\n`;
    const pdf = await compiled('anchors', 'arxiv', { body });
    expect((await checkFormat(findVenue('arxiv'), pdf, env, DATA)).findings.map((f) => f.message)).toEqual([
      "claim anchor 'best.comparisons' prints 31{,}000, but science_data.json gives 30{,}850",
      "claim anchor 'best.time' is not a key of science_data.json values",
      "claim anchor 'node_x.y' is not a key of science_data.json values",
    ]);
    // without the data, only what the text alone shows
    expect((await checkFormat(findVenue('arxiv'), pdf, env, null)).findings.map((f) => f.message)).toEqual(["claim anchor 'best.time' has no value: the paper tools fill it from science_data.json"]);
  });

  test('a figure that is not there is an error, one found through \\graphicspath is not', async () => {
    const dir = join(root, 'figures');
    const pdf = await compiled('figures', 'arxiv', { files: { 'figs/speed.png': Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64').toString('latin1') } });
    // the figures are named after the compile, as a paper edited since would
    const tex = join(dir, 'main.tex');
    const text = await Bun.file(tex).text();
    writeFileSync(tex, text.replace('\\begin{document}', '\\graphicspath{{figs/}}\n\\begin{document}').replace('\\section{Introduction}', '\\section{Introduction}\n\\includegraphics[width=0.5\\linewidth]{speed}\n\\includegraphics{plots/missing.pdf}'));
    const report = await checkFormat(findVenue('arxiv'), pdf, env, DATA);
    expect(report.findings.filter((f) => f.check === 'missing_figure')).toEqual([{ check: 'missing_figure', severity: 'error', message: "figure 'plots/missing.pdf' is not there", file: 'main.tex', line: expect.any(Number) }]);
  });

  test('without the files TeX leaves beside the PDF: one line saying to compile first', async () => {
    const pdf = await compiled('nolog', 'arxiv');
    rmSync(join(root, 'nolog', 'main.log'));
    const err = await checkFormat(findVenue('arxiv'), pdf, env, null).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).message).toBe(`there is no main.log beside ${pdf}`);
    expect((err as NotFoundError).hint).toContain('compile the paper with compile_paper first');
  });
});

test('bad arguments: not a PDF, a PDF that is not there', async () => {
  const fail = (p: string) => checkFormat(findVenue('arxiv'), p, env, null).then(() => new Error('checked'), (e: unknown) => e as Error);
  expect((await fail(join(root, 'paper.tex'))).message).toBe(`pdf_path '${join(root, 'paper.tex')}' is not a .pdf file`);
  expect((await fail(join(root, 'none.pdf'))).message).toBe(`pdf_path '${join(root, 'none.pdf')}' does not exist`);
});
