import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paperRefineTool } from '../../../../src/skills/paper/refine.ts';
import { lacks } from '../../../support/components.ts';
import { type ModelServer, startModelServer } from '../../../support/model-server.ts';
import { pdfText, writePaper } from '../../../support/paper.ts';
import { paperRefineReply } from '../../../support/scripted-paper.ts';
import { researcherReply } from '../../../support/scripted-researcher.ts';
import { type OpenAIChatRequest, promptName, textOfRoles } from '../../../support/scripted-request.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { callTool } from '../coding/tool-call.ts';
import { rejection } from '../../llm/helpers.ts';

// paper_refine against real LaTeX and the scripted model server
const skip = lacks('latex') || lacks('pdftools');
const FIXTURE = join(import.meta.dir, '../../../fixtures/science-data/sorting.json');

const INTRO = 'Sorting by comparisons~\\cite{knuth1998} is our subject. The best configuration needs \\svcclaim{best.comparisons}{30{,}850} comparisons against \\svcclaim{baseline.comparisons}{1} for insertion sort.';
const METHOD = 'Each configuration sorts the same pseudo-random array and counts every comparison.';
const EXPERIMENT = 'Table~\\ref{tab:results} lists the configurations; the best is \\svcclaim{improvement.comparisons.ratio}{2} times better than the baseline.';
const CONCLUSION = 'Shell sort with a geometric gap sequence needs fewer comparisons than insertion sort on our array.';
const TABLE = '\\begin{table}[h]\n\\centering\n\\begin{tabular}{lr}\nbest & \\svcclaim{best.comparisons}{30{,}850}\\\\\n\\end{tabular}\n\\caption{Results.}\n\\label{tab:results}\n\\end{table}\n';
const BODY = `\\section{Introduction}\n${INTRO}\n\n\\section{Method}\n${METHOD}\n\n\\section{Experiments}\n${EXPERIMENT}\n\n${TABLE}\n\\section{Conclusion}\n${CONCLUSION}\n`;

const REVIEW = {
  decision: 'Reject',
  weaknesses: ['The introduction does not say why the number of comparisons matters more than time.'],
  issues: ['[tab:results] The results table gives no unit.'],
  recommendations: ['Say in the conclusion what input sizes were not tried.', 'Proofread the paper.'],
};

let dir: string;
let ckpt: string;
let server: ModelServer;
let respond: (b: OpenAIChatRequest) => string | null | Promise<string> = () => null;

beforeAll(() => {
  dir = tempDir();
  ckpt = join(dir, 'ckpt');
  mkdirSync(join(dir, 'project'), { recursive: true });
  server = startModelServer([], {
    respond: async (b) => {
      const own = await respond(b as OpenAIChatRequest);
      return own === null ? researcherReply(b as OpenAIChatRequest) : { text: own };
    },
  });
});
afterAll(() => {
  server?.stop();
  removeDir(dir);
});
beforeEach(() => {
  rmSync(ckpt, { recursive: true, force: true });
  mkdirSync(ckpt, { recursive: true });
  copyFileSync(FIXTURE, join(ckpt, 'science_data.json'));
  writePaper(join(ckpt, 'paper'), 'arxiv', { body: BODY });
  writeFileSync(join(ckpt, 'review_report.json'), JSON.stringify(REVIEW));
  server.requests.length = 0;
  respond = () => null;
});

const env = () => ({ PATH: process.env.PATH, HOME: dir, SVC_ROOT: join(dir, 'project'), SVC_CHECKPOINT_DIR: ckpt, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'scripted-researcher', SVC_LLM_MAX_RETRIES: '0' });
const refine = (args: Record<string, unknown> = {}) => callTool(paperRefineTool, args, env());
const refineCalls = () => server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body as OpenAIChatRequest).filter((b) => promptName(b) === 'paper/refine');
const sectionAsked = (b: OpenAIChatRequest) => /You refine the (\w[\w ]*?) section/.exec(textOfRoles(b, ['system']))?.[1];
const draft = () => readFileSync(join(ckpt, 'paper', 'main.tex'), 'utf8');

describe.skipIf(skip)('paper_refine', () => {
  test("the sections the review names revised with its points, the others untouched and not asked; the refined paper beside the draft, compiled and checked", async () => {
    const before = draft();
    const r = await refine();
    expect(JSON.parse(readFileSync(join(ckpt, 'paper_refine.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(r)));
    expect(r.sections).toEqual([
      { section: 'introduction', accepted: true, points: 1 },
      { section: 'experiment', accepted: true, points: 1 },
      { section: 'conclusion', accepted: true, points: 1 },
    ]);
    expect(r.unplaced).toEqual(['Proofread the paper.']);
    expect(refineCalls().map(sectionAsked).sort()).toEqual(['conclusion', 'experiments', 'introduction']);
    expect(draft()).toBe(before);
    const tex = readFileSync(join(ckpt, 'paper', 'main_refined.tex'), 'utf8');
    expect(r.refined_tex_path).toBe(join(ckpt, 'paper', 'main_refined.tex'));
    expect(tex).toContain('We note, as the review did, that the introduction does not say why the number of comparisons matters more than time.');
    expect(tex).toContain('We note, as the review did, that say in the conclusion what input sizes were not tried.');
    // the method section, which no point names, is as it was; the table after the experiments too
    expect(tex).toContain(`\\section{Method}\n${METHOD}\n\n\\section{Experiments}`);
    expect(tex).toMatch(/We note, as the review did, that the results table gives no unit\.\n\n\\begin\{table\}\[h\]\n[\s\S]*\\label\{tab:results\}\n\\end\{table\}\n\n\\section\{Conclusion\}/);
    expect(tex).toMatch(/input sizes were not tried\.\n\n\\svcreferences\n/);
    // the anchors filled from science_data.json
    const data = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    expect(tex).toContain(`\\svcclaim{best.comparisons}{${String(data.values['best.comparisons'].value).replace(/\B(?=(\d{3})+$)/g, '{,}')}}`);
    expect(tex).not.toContain('\\svcclaim{baseline.comparisons}{1}');
    expect(r).toMatchObject({ compiled: true, pdf_path: join(ckpt, 'paper', 'main_refined.pdf'), pages: expect.any(Number) });
    expect(Array.isArray(r.format)).toBe(true);
    expect(typeof r.format_passes).toBe('boolean');
    expect(pdfText(r.pdf_path)).toContain('We note, as the review did');
  }, 180_000);

  test('an edit that drops an anchor, names an unknown one or states a number of its own is refused after one retry, the section keeping its text', async () => {
    respond = (b) => {
      if (promptName(b) !== 'paper/refine') return null;
      switch (sectionAsked(b)) {
        case 'introduction':
          return JSON.stringify({ latex: 'Sorting by comparisons~\\cite{knuth1998} is our subject, and the best configuration needs far fewer comparisons.' });
        case 'experiments':
          return JSON.stringify({ latex: `${EXPERIMENT} It also needs \\svcclaim{made.up.key} fewer moves.` });
        default:
          return JSON.stringify({ latex: `${CONCLUSION} It saves 42 percent.` });
      }
    };
    const r = await refine({ suggested_revisions_json: 'revisions.json' }).catch((e) => e);
    expect(r).toBeInstanceOf(Error);
    expect((r as Error).message).toContain('revisions.json');
    writeFileSync(join(ckpt, 'revisions.json'), JSON.stringify([{ section: 'Experiments', revision: 'Say what the table measures.' }]));
    const out = await refine({ suggested_revisions_json: 'revisions.json' });
    expect(JSON.parse(readFileSync(join(ckpt, 'paper_refine.json'), 'utf8')).sections).toEqual(JSON.parse(JSON.stringify(out.sections)));
    const bySection = Object.fromEntries(out.sections.map((s: { section: string }) => [s.section, s]));
    expect(bySection.introduction).toMatchObject({ accepted: false, reason: expect.stringContaining('it drops the claim anchors best.comparisons, baseline.comparisons') });
    expect(bySection.experiment).toMatchObject({ accepted: false, points: 2, reason: expect.stringContaining('made.up.key, which are not measured values') });
    expect(bySection.conclusion).toMatchObject({ accepted: false, reason: expect.stringContaining('it states 42 as digits') });
    // each told once why, then given up
    const asked = refineCalls().map(sectionAsked);
    expect(asked.filter((s) => s === 'introduction')).toHaveLength(2);
    const retry = refineCalls().filter((b) => sectionAsked(b) === 'introduction')[1] as OpenAIChatRequest;
    expect(textOfRoles(retry, ['user'])).toContain('rejected: it drops the claim anchors best.comparisons, baseline.comparisons');
    expect(asked).not.toContain('method');
    const tex = readFileSync(out.refined_tex_path, 'utf8');
    expect(tex).toContain('\\svcclaim{baseline.comparisons}');
    expect(tex).not.toContain('made.up.key');
    expect(tex).not.toContain('42 percent');
    expect(tex).toContain(CONCLUSION);
    expect(out.compiled).toBe(true);
  }, 180_000);
});

describe.skipIf(skip)('paper_refine: an answer that is no edit', () => {
  test('an answer refused for an anchor, then one that is not JSON: the reason is the last one', async () => {
    let n = 0;
    respond = (b) => (promptName(b) !== 'paper/refine' ? null : n++ === 0 ? JSON.stringify({ latex: 'No anchors here.' }) : 'I would rather not.');
    writeFileSync(join(ckpt, 'review_report.json'), JSON.stringify({ weaknesses: ['The introduction is vague.'] }));
    const r = await refine();
    expect(r.sections).toHaveLength(1);
    expect(r.sections[0].accepted).toBe(false);
    expect(r.sections[0].reason).toContain('not valid JSON');
    expect(readFileSync(r.refined_tex_path, 'utf8')).toContain('\\svcclaim{baseline.comparisons}');
  }, 180_000);
});

describe.skipIf(skip)('paper_refine: the sections at once', () => {
  test('the three sections are asked before any of them is answered', async () => {
    const held: Array<() => void> = [];
    let timedOut = false;
    const fallback = setTimeout(() => {
      timedOut = true;
      for (const go of held) go();
    }, 10_000);
    respond = (b) => {
      if (promptName(b) !== 'paper/refine') return null;
      const answer = paperRefineReply(b);
      return new Promise<string>((resolve) => {
        held.push(() => resolve(answer));
        if (held.length === 3) for (const go of held) go();
      });
    };
    try {
      const r = await refine();
      expect(timedOut).toBe(false);
      expect(r.sections.map((s: { accepted: boolean }) => s.accepted)).toEqual([true, true, true]);
    } finally {
      clearTimeout(fallback);
    }
  }, 180_000);
});

describe.skipIf(skip)('paper_refine: the semantic review', () => {
  test("its findings are points like the review's; a semantic review that is not there is no error", async () => {
    writeFileSync(join(ckpt, 'review_report.json'), JSON.stringify({ weaknesses: [] }));
    writeFileSync(join(ckpt, 'semantic.json'), JSON.stringify({ findings: [{ text: 'The method does not say how ties are counted.' }, 'Unclear throughout.'] }));
    const r = await refine({ semantic_review_path: 'semantic.json' });
    expect(r.sections).toEqual([{ section: 'method', accepted: true, points: 1 }]);
    expect(r.unplaced).toEqual(['Unclear throughout.']);
    expect(readFileSync(r.refined_tex_path, 'utf8')).toContain('We note, as the review did, that the method does not say how ties are counted.');
    const none = await refine({ semantic_review_path: 'no-such-review.json' });
    expect(none.sections).toEqual([]);
    expect(none.compiled).toBe(true);
  }, 180_000);
});

describe.skipIf(skip)('paper_refine: when it cannot finish', () => {
  test('a refined paper that does not compile is recorded with the error; a model that does not answer is one line, the draft kept', async () => {
    writePaper(join(ckpt, 'paper'), 'arxiv', { body: BODY.replace(METHOD, `${METHOD} \\nosuchmacro`) });
    const r = await refine();
    expect(r).toMatchObject({ compiled: false, pdf_path: null, pages: null, format: [], format_passes: null });
    expect(r.compile_error).toContain('nosuchmacro');
    expect(JSON.parse(readFileSync(join(ckpt, 'paper_refine.json'), 'utf8')).compiled).toBe(false);
    rmSync(join(ckpt, 'paper_refine.json'));
    rmSync(join(ckpt, 'paper', 'main_refined.tex'));
    const before = draft();
    const e = await rejection(callTool(paperRefineTool, {}, { ...env(), LLM_API_BASE: 'http://127.0.0.1:9/v1' }));
    expect(e.message).toStartWith('the paper model could not refine the ');
    expect(e.message).not.toContain('\n');
    expect(existsSync(join(ckpt, 'paper_refine.json'))).toBe(false);
    expect(existsSync(join(ckpt, 'paper', 'main_refined.tex'))).toBe(false);
    expect(draft()).toBe(before);
  }, 180_000);
});

describe('paper_refine: what it is given', () => {
  test('a missing review, a paper outside the checkpoint and bad arguments are one clear line each, before any model call', async () => {
    rmSync(join(ckpt, 'review_report.json'));
    let e = await rejection(refine());
    expect(e.message).toBe(`merged_review_path '${join(ckpt, 'review_report.json')}' does not exist`);
    expect((e as Error & { hint?: string }).hint ?? '').toContain('merge_reviews');
    writeFileSync(join(ckpt, 'review_report.json'), JSON.stringify(REVIEW));
    e = await rejection(refine({ tex_path: '/etc/passwd.tex' }));
    expect(e.message).toContain("tex_path '/etc/passwd.tex'");
    expect(e.message).toContain('outside');
    e = await rejection(refine({ tex_path: 'paper/nope.tex' }));
    expect(e.message).toBe(`tex_path '${join(ckpt, 'paper', 'nope.tex')}' does not exist`);
    e = await rejection(refine({ tex_path: 'review_report.json' }));
    expect(e.message).toContain('is not a .tex file');
    e = await rejection(refine({ max_rounds: 3 }));
    expect(e.message).toContain('max_rounds');
    writeFileSync(join(ckpt, 'revisions.json'), JSON.stringify([{ section: 'appendix', revision: 'x' }]));
    e = await rejection(refine({ suggested_revisions_json: 'revisions.json' }));
    expect(e.message).toBe('suggested revision 1 has no known section or no revision text');
    writeFileSync(join(ckpt, 'revisions.json'), '{');
    e = await rejection(refine({ suggested_revisions_json: 'revisions.json' }));
    expect(e.message).toStartWith(`suggested_revisions_json '${join(ckpt, 'revisions.json')}' is not JSON`);
    expect(refineCalls()).toHaveLength(0);
    expect(existsSync(join(ckpt, 'paper_refine.json'))).toBe(false);
  });
});
