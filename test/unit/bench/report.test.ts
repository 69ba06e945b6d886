import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { downloadUrls, reportFile } from '../../../src/bench/report/files.ts';
import { mdText } from '../../../src/bench/report/markdown.ts';
import { parseReportQuery } from '../../../src/bench/report/query.ts';
import { type AuditReportInput, renderAuditReport } from '../../../src/bench/report/render.ts';
import { ConflictError, InputError, InvalidRecordError, NotFoundError } from '../../../src/core/errors.ts';
import { completedRun, HOSTILE, HOSTILE_LOG, LEAF_IDS, type Run } from './report-fixture.ts';

let run: Run;
let out: string;
let report: Awaited<ReturnType<typeof renderAuditReport>>;

const input = (more: Partial<AuditReportInput> = {}): AuditReportInput => ({
  job: run.job,
  paper: run.paper,
  results: run.results,
  runDir: run.runDir,
  outputRoot: out,
  languages: ['en'],
  formats: ['pdf', 'html', 'md'],
  env: run.env,
  ...more,
});
const pdfText = (file: string) => Bun.spawnSync(['pdftotext', '-layout', file, '-']).stdout.toString();
const compact = (s: string) => s.replace(/\s+/g, '');
/** Files a crashed or failed write would leave: atomic writes' temp files. */
const tempFiles = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.tmp'));
/** A directory put first on PATH holding the given scripts. */
function binDir(name: string, scripts: Record<string, string>): string {
  const dir = join(run.registry, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, body] of Object.entries(scripts)) {
    writeFileSync(join(dir, file), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, file), 0o755);
  }
  return `${dir}:${run.env.PATH}`;
}

beforeAll(async () => {
  for (const tool of ['pdflatex', 'latexmk', 'pdfinfo', 'pdftotext']) if (!Bun.which(tool)) throw new Error(`${tool} is not installed: apt-get install texlive-latex-base texlive-latex-recommended lmodern latexmk poppler-utils`);
  run = await completedRun();
  out = join(run.registry, 'reports', run.job.job_id);
  report = await renderAuditReport(input());
}, 120_000);
afterAll(() => run?.stop());

describe('the audit report of a completed job, in English', () => {
  test('all three formats are made; the harvest is the grade', () => {
    expect(report.status).toBe('ok');
    expect(report.problems).toBeUndefined();
    expect(report.paths).toEqual({ 'en/pdf': join(out, 'en', 'report.pdf'), 'en/html': join(out, 'en', 'report.html'), 'en/md': join(out, 'en', 'report.md') });
    expect(report.harvest).toEqual({ ors_score: run.grade.ors_score, leaves_total: 5, leaves_passed: run.grade.leaves_passed });
    // the scripted judge passes four leaves; the best-configuration number is not in the log
    expect(run.grade.ors_score).toBe(0.875);
    expect(run.grade.leaves_passed).toBe(4);
    expect(tempFiles(out)).toEqual([]);
  });

  test('the PDF: pages, the ORS score, every leaf id, the hostile text printed as text', () => {
    const pdf = join(out, 'en', 'report.pdf');
    const info = Bun.spawnSync(['pdfinfo', pdf]).stdout.toString();
    expect(Number(/^Pages:\s+(\d+)/m.exec(info)?.[1])).toBeGreaterThan(1);
    const text = pdfText(pdf);
    expect(text).toMatch(/ORS score\s+0\.875/);
    expect(text).toMatch(/Raw score\s+0\.8\b/);
    expect(text).toMatch(/Per-run scores\s+0\.875, 0\.875/);
    for (const id of LEAF_IDS) expect(compact(text)).toContain(compact(id));
    // every special character printed as itself, \input not run (no line of /etc/passwd)
    expect(compact(text)).toContain(compact(HOSTILE));
    expect(compact(text)).toContain(compact(HOSTILE_LOG));
    expect(text).not.toContain('root:x:0:0');
    // a name in a script pdfLaTeX cannot set is written as its code points
    expect(text).toContain('[U+5C71][U+7530]');
  });

  test('the HTML: one file with the three figures inline, nothing from the data as markup', () => {
    const html = readFileSync(join(out, 'en', 'report.html'), 'utf8');
    for (const name of ['rubric_tree', 'score_distribution', 'leaf_grades']) expect(html).toMatch(new RegExp(`<figure id="figure-${name}"><svg `));
    expect(html.match(/<svg /g)?.length).toBe(3);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(html).toContain("Content-Security-Policy\" content=\"default-src 'none'");
    // no reference to another file: everything is inside
    expect(html).not.toMatch(/\b(src|href)=/);
  });

  test('the Markdown: every leaf with its score, figures as relative files, hostile text escaped', () => {
    const md = readFileSync(join(out, 'en', 'report.md'), 'utf8');
    expect(md).toContain('- **ORS score**: 0.875\n- **Raw score**: 0.8\n- **Leaves passed**: 4 / 5');
    for (const g of run.grade.leaf_grades) expect(md).toContain(`### ${mdText(g.leaf_id)}\n\n- **Score**: ${g.score}\n- **Runs**: ${g.runs.join(', ')}`);
    for (const name of ['rubric_tree', 'score_distribution', 'leaf_grades']) {
      expect(md).toContain(`(figures/${name}.svg)`);
      expect(readFileSync(join(out, 'en', 'figures', `${name}.svg`), 'utf8')).toStartWith('<?xml');
    }
    expect(md).toContain('&lt;script&gt;alert("x")&lt;/script&gt; \\\\input\\{/etc/passwd\\} 100% &amp; co\\_op #1 \\$x\\$ \\{a\\} \\~home \\^caret \\[b\\] \\`\\`\\` end');
    // the log is a code block (where markup is text) behind a fence longer than any run of backticks in it
    const fence = /^(`{5,})text\n([\s\S]*?)\n\1$/m.exec(md);
    expect(fence?.[2]).toContain(HOSTILE_LOG);
    const outsideCode = md.replace(fence?.[0] ?? '', '');
    expect(outsideCode).not.toMatch(/<script/i);
  });

  test('figures are the same bytes when made again', async () => {
    const svgs = () => ['rubric_tree', 'score_distribution', 'leaf_grades'].map((n) => readFileSync(join(out, 'en', 'figures', `${n}.svg`), 'utf8'));
    const before = svgs();
    await renderAuditReport(input({ formats: ['md'] }));
    expect(svgs()).toEqual(before);
  });
});

describe('languages', () => {
  const hasLuatexja = () => Bun.spawnSync(['kpsewhich', 'luatexja.sty']).stdout.toString().trim() !== '';

  test('Japanese: labels translated, data as is; its PDF made when luatexja is installed, else named with the package to install', async () => {
    const r = await renderAuditReport(input({ languages: ['en', 'ja'] }));
    const md = readFileSync(join(out, 'ja', 'report.md'), 'utf8');
    expect(md).toStartWith('# 再現性監査レポート: Fewer comparisons with geometric Shell sort\n');
    expect(md).toContain('- **ORS スコア**: 0.875');
    expect(md).toContain('山田 太郎');
    expect(readFileSync(join(out, 'ja', 'report.html'), 'utf8')).toContain('<html lang="ja">');
    expect(r.paths['en/pdf']).toBe(join(out, 'en', 'report.pdf'));
    if (hasLuatexja()) {
      expect(r.status).toBe('ok');
      expect(pdfText(r.paths['ja/pdf'] as string)).toContain('0.875');
    } else {
      expect(r.status).toBe('partial');
      expect(r.problems).toEqual({ 'ja/pdf': expect.stringContaining('apt-get install texlive-lang-japanese') });
      expect(r.paths['ja/pdf']).toBeUndefined();
      expect(existsSync(join(out, 'ja', 'report.pdf'))).toBe(false);
    }
  }, 120_000);

  test('Chinese labels; its PDF needs ctex', async () => {
    const root = join(run.registry, 'reports', 'zh');
    const r = await renderAuditReport(input({ outputRoot: root, languages: ['zh'], formats: ['md', 'pdf'] }));
    expect(readFileSync(join(root, 'zh', 'report.md'), 'utf8')).toContain('- **ORS 分数**: 0.875');
    if (Bun.spawnSync(['kpsewhich', 'ctex.sty']).stdout.toString().trim() === '') expect(r.problems).toEqual({ 'zh/pdf': expect.stringContaining('apt-get install texlive-lang-chinese') });
    else expect(pdfText(r.paths['zh/pdf'] as string)).toContain('0.875');
  }, 120_000);

  test('a Japanese PDF is typeset by LuaLaTeX: a luatexja that kpsewhich finds but TeX does not is a LaTeX failure naming the file', async () => {
    const PATH = binDir('fake-luatexja', { kpsewhich: 'echo /usr/share/texmf/luatexja.sty' });
    const root = join(run.registry, 'reports', 'fake-luatexja');
    const r = await renderAuditReport(input({ outputRoot: root, languages: ['ja'], formats: ['pdf'], env: { ...run.env, PATH } }));
    if (hasLuatexja()) return void expect(r.status).toBe('ok');
    expect(r.problems?.['ja/pdf']).toMatch(/^LaTeX failed at report\.tex:\d+: .*luatexja\.sty.* not found/);
    expect(r.problems?.['ja/pdf']).toContain(join(root, 'ja', 'latex', 'report.log'));
    expect(readFileSync(join(root, 'ja', 'latex', 'report.log'), 'utf8')).toContain('LuaHBTeX');
  }, 120_000);

  test('a Japanese PDF is refused when kpsewhich finds no luatexja, and the rest is still made', async () => {
    const PATH = binDir('no-luatexja', { kpsewhich: 'exit 1' });
    const root = join(run.registry, 'reports', 'no-luatexja');
    const r = await renderAuditReport(input({ outputRoot: root, languages: ['ja', 'en'], formats: ['pdf', 'md'], env: { ...run.env, PATH } }));
    expect(r.status).toBe('partial');
    expect(r.problems).toEqual({ 'ja/pdf': 'luatexja.sty is not installed (kpsewhich does not find it): install it with apt-get install texlive-lang-japanese' });
    expect(Object.keys(r.paths).sort()).toEqual(['en/md', 'en/pdf', 'ja/md']);
    expect(existsSync(join(root, 'ja', 'report.pdf'))).toBe(false);
  }, 120_000);
});

describe('what a grade may lack', () => {
  test('a code-only grade: the leaves it did not grade are shown as such, with why', async () => {
    const root = join(run.registry, 'reports', 'code-only');
    const kept = run.grade.leaf_grades.filter((g) => g.task_category === 'Code Development');
    const grade = { ...run.grade, leaf_grades: kept, leaves_total: kept.length, code_only: true, code_only_reason: 'asked for', degraded: true, degraded_reason: 'graded code_only: 2 of 5 rubric leaves' };
    const r = await renderAuditReport(input({ outputRoot: root, formats: ['md', 'html'], results: { ...run.results, grade } }));
    expect(r.harvest).toEqual({ ors_score: 0.875, leaves_total: 2, leaves_passed: run.grade.leaves_passed });
    const md = readFileSync(join(root, 'en', 'report.md'), 'utf8');
    expect(md).toContain('| · · code-execution/runs | 1 | Code Execution | not graded |');
    expect(md).toContain('- **Why degraded**: graded code\\_only: 2 of 5 rubric leaves');
    expect(md).toContain('- **Why code only**: asked for');
    expect(md).not.toContain('### result-analysis/best');
    // the tree figure draws an ungraded leaf grey
    expect(readFileSync(join(root, 'en', 'report.html'), 'utf8')).toMatch(/<rect [^>]*fill="#d0d0d0"[^>]*\/><text [^>]*>code-execution\/runs  –<\/text>/);
  });

  test('a reproduction that left no run record: its error is shown in place of the run', async () => {
    const root = join(run.registry, 'reports', 'no-run');
    await renderAuditReport(input({ outputRoot: root, formats: ['md'], results: { ...run.results, reproduce_run: { error: 'docker is not reachable' } } }));
    const md = readFileSync(join(root, 'en', 'report.md'), 'utf8');
    expect(md).toContain('No record of the reproduction run. docker is not reachable');
    expect(md).not.toContain('**Exit code**');
  });
});

test('a long reproduce.log: its last 60 lines, a line too long cut', async () => {
  const copy = join(run.registry, 'long-log-run');
  cpSync(run.runDir, copy, { recursive: true });
  const lines = Array.from({ length: 5000 }, (_, i) => `line ${i}`);
  lines.push('x'.repeat(1000));
  writeFileSync(join(copy, 'repro_sandbox', 'reproduce.log'), `${lines.join('\n')}\n`);
  const root = join(run.registry, 'reports', 'long-log');
  await renderAuditReport(input({ runDir: copy, outputRoot: root, formats: ['md'] }));
  const block = /^`{3}text\n([\s\S]*?)\n`{3}$/m.exec(readFileSync(join(root, 'en', 'report.md'), 'utf8'))?.[1]?.split('\n') ?? [];
  expect(block.length).toBe(60);
  expect(block[0]).toBe('line 4941');
  expect(block[59]).toBe(`${'x'.repeat(300)}…`);
});

describe('what is refused', () => {
  test('a LaTeX failure: named with its log, no PDF at the final path (an earlier one removed), the other formats made', async () => {
    const root = join(run.registry, 'reports', 'latex-fails');
    mkdirSync(join(root, 'en'), { recursive: true });
    writeFileSync(join(root, 'en', 'report.pdf'), 'an earlier PDF');
    const PATH = binDir('broken-tex', { pdflatex: 'echo "! Emergency stop." >&2; exit 1' });
    const r = await renderAuditReport(input({ outputRoot: root, env: { ...run.env, PATH } }));
    expect(r.status).toBe('partial');
    expect(r.problems?.['en/pdf']).toStartWith('LaTeX failed');
    expect(r.problems?.['en/pdf']).toContain(join(root, 'en', 'latex', 'report.log'));
    expect(existsSync(join(root, 'en', 'report.pdf'))).toBe(false);
    expect(Object.keys(r.paths).sort()).toEqual(['en/html', 'en/md']);
    expect(tempFiles(root)).toEqual([]);
  }, 60_000);

  test('a job that is not completed, and results without a valid grade, are refused before anything is written', async () => {
    const root = join(run.registry, 'reports', 'refused');
    for (const status of ['queued', 'running', 'failed'] as const) {
      const err = await renderAuditReport(input({ outputRoot: root, job: { ...run.job, status } })).catch((e) => e);
      expect(err).toBeInstanceOf(ConflictError);
      expect(err.message).toBe(`job ${run.job.job_id} is ${status}: a report is made of a completed job`);
    }
    const noGrade = await renderAuditReport(input({ outputRoot: root, results: { ...run.results, grade: null } })).catch((e) => e);
    expect(noGrade).toBeInstanceOf(InvalidRecordError);
    expect(noGrade.message).toBe(`the results of job ${run.job.job_id} hold no grade`);
    const badGrade = await renderAuditReport(input({ outputRoot: root, results: { ...run.results, grade: { ...run.grade, ors_score: 'high' } } })).catch((e) => e);
    expect(badGrade).toBeInstanceOf(InvalidRecordError);
    expect(badGrade.message).toContain('/ors_score');
    expect(existsSync(root)).toBe(false);
  });

  test('a cancelled call stops before writing', async () => {
    const root = join(run.registry, 'reports', 'cancelled');
    const controller = new AbortController();
    controller.abort();
    await expect(renderAuditReport(input({ outputRoot: root, signal: controller.signal }))).rejects.toThrow('aborted');
    expect(existsSync(root)).toBe(false);
  });

  test('a rubric.json that is a link out of the run directory is not followed', async () => {
    const other = join(run.registry, 'other-run');
    mkdirSync(join(other, 'repro_sandbox'), { recursive: true });
    writeFileSync(join(run.registry, 'outside.json'), readFileSync(join(run.runDir, 'rubric.json')));
    symlinkSync(join(run.registry, 'outside.json'), join(other, 'rubric.json'));
    const err = await renderAuditReport(input({ runDir: other, outputRoot: join(run.registry, 'reports', 'linked') })).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toContain('is outside');
  });
});

describe('parseReportQuery', () => {
  const where = { registryRoot: '/srv/registry', jobId: 'abc' };

  test('the defaults: English, every format, <registry>/reports/<job_id>', () => {
    expect(parseReportQuery({}, where)).toEqual({ languages: ['en'], formats: ['pdf', 'html', 'md'], outputRoot: '/srv/registry/reports/abc' });
    expect(parseReportQuery({ languages: 'en, JA,en', formats: 'md,html', output_root: 'abc/v2' }, where)).toEqual({ languages: ['en', 'ja'], formats: ['md', 'html'], outputRoot: '/srv/registry/reports/abc/v2' });
    expect(parseReportQuery({ output_root: '/srv/registry/reports/x' }, where).outputRoot).toBe('/srv/registry/reports/x');
  });

  test('an unknown format or language is refused, listing the choices', () => {
    const bad = (q: Parameters<typeof parseReportQuery>[0]) => {
      try {
        parseReportQuery(q, where);
      } catch (e) {
        return e as InputError;
      }
      throw new Error('accepted');
    };
    expect(bad({ formats: 'pdf,docx' })).toMatchObject({ message: "unknown format: 'docx'", hint: 'choose from pdf, html, md' });
    expect(bad({ languages: 'en,fr,de' })).toMatchObject({ message: "unknown languages: 'fr', 'de'", hint: 'choose from en, ja, zh' });
    expect(bad({ languages: 'fr' })).toBeInstanceOf(InputError);
  });

  test('an output_root outside <registry>/reports/, or the reports directory itself, is refused', () => {
    for (const output_root of ['/etc', '../papers/p1', '/srv/registry', '/srv/registry/papers/p1/runs/abc', 'abc/../../manifest']) expect(() => parseReportQuery({ output_root }, where)).toThrow(InputError);
    expect(() => parseReportQuery({ output_root: '/srv/registry/reports' }, where)).toThrow('is the reports directory itself');
    expect(() => parseReportQuery({ output_root: '.' }, where)).toThrow(InputError);
  });
});

describe('fetching a report file', () => {
  test('download_urls map each <lang>/<fmt> to its URL path', () => {
    expect(downloadUrls('abc', report.paths)).toEqual({
      'en/pdf': '/api/bench/run/abc/report/en/report.pdf',
      'en/html': '/api/bench/run/abc/report/en/report.html',
      'en/md': '/api/bench/run/abc/report/en/report.md',
    });
  });

  test('a report file or figure resolves with its content type', () => {
    expect(reportFile(out, 'en', 'report.pdf')).toEqual({ path: join(out, 'en', 'report.pdf'), contentType: 'application/pdf' });
    expect(reportFile(out, 'en', 'report.html').contentType).toBe('text/html; charset=utf-8');
    expect(reportFile(out, 'en', 'figures/rubric_tree.svg')).toEqual({ path: join(out, 'en', 'figures', 'rubric_tree.svg'), contentType: 'image/svg+xml' });
  });

  test('traversal, other files, unknown languages and links leading out are refused; a missing file is not found', () => {
    for (const file of ['../../../../papers/shell-sort/runs/x/rubric.json', '/etc/passwd', 'figures/../../en/report.md', 'latex/report.tex', 'figures/x/../y.svg', 'report.md/..', '']) expect(() => reportFile(out, 'en', file)).toThrow(InputError);
    for (const lang of ['..', 'fr', 'en/..', '']) expect(() => reportFile(out, lang, 'report.md')).toThrow(InputError);
    symlinkSync('/etc/hostname', join(out, 'en', 'figures', 'leak.svg'));
    expect(() => reportFile(out, 'en', 'figures/leak.svg')).toThrow('is outside');
    rmSync(join(out, 'en', 'figures', 'leak.svg'));
    expect(() => reportFile(out, 'zh', 'report.md')).toThrow(NotFoundError);
  });
});
