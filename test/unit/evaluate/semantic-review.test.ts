import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnavailableError } from '../../../src/core/errors.ts';
import { answerProblem, groundFindings, numberMasker } from '../../../src/evaluate/semantic-review/answer.ts';
import { claimSentences, MAX_SENTENCE_CHARS } from '../../../src/evaluate/semantic-review/claims.ts';
import { MAX_CLAIMS, semanticReview, type SemanticReviewJob } from '../../../src/evaluate/semantic-review/index.ts';
import type { CompletionRequest } from '../../../src/llm/client.ts';
import { reviewPoints } from '../../../src/paper/refine.ts';
import type { ScienceData } from '../../../src/schema/science-data.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const FIXTURE = join(import.meta.dir, '../../fixtures/science-data/sorting.json');
const data = JSON.parse(readFileSync(FIXTURE, 'utf8')) as ScienceData;

const paper = (body: string, abstract = 'We sort.') => `\\documentclass{article}\n\\newcommand{\\svcclaim}[2]{#2}\n\\begin{document}\n\\begin{abstract}\n${abstract}\n\\end{abstract}\n${body}\n\\end{document}\n`;
const INTRO = 'Sorting is our subject (e.g. in databases). Shell sort always needs \\svcclaim{best.comparisons}{20{,}573} comparisons against \\svcclaim{baseline.comparisons}{1{,}003{,}112} for insertion sort. We go on.';
const EXPERIMENT = 'The best is \\svcclaim{improvement.comparisons.ratio}{48.8} times better % significantly\nthan the baseline.\n% \\svcclaim{node_a.moves}{1} in a comment\nAn unknown \\svcclaim{no.such_key}{3} here.';
const TABLE = '\\begin{table}[h]\n\\begin{tabular}{lr}\nbest & \\svcclaim{best.comparisons}{20{,}573}\\\\\n\\end{tabular}\n\\caption{All \\svcclaim{count.configurations}{5} configurations.}\n\\end{table}';
const TEX = paper(`\\section{Introduction}\n${INTRO}\n\n\\section{Experiments}\n${EXPERIMENT}\n\n${TABLE}\n`, 'The best needs \\svcclaim{best.comparisons}{20{,}573} comparisons.');

describe('the claim sentences of a paper', () => {
  test('one per sentence with anchors, with its keys, section and line; tables, comments and unknown keys aside', () => {
    const r = claimSentences(TEX, data);
    expect(r.claims).toEqual([
      { id: 'C1', sentence: 'The best needs 20,573 [best.comparisons] comparisons.', keys: ['best.comparisons'], section: 'abstract', line: 5 },
      {
        id: 'C2',
        sentence: 'Shell sort always needs 20,573 [best.comparisons] comparisons against 1,003,112 [baseline.comparisons] for insertion sort.',
        keys: ['best.comparisons', 'baseline.comparisons'],
        section: 'introduction',
        line: 8,
      },
      { id: 'C3', sentence: 'The best is 48.8 [improvement.comparisons.ratio] times better than the baseline.', keys: ['improvement.comparisons.ratio'], section: 'experiments', line: 11 },
      { id: 'C4', sentence: 'All 5 [count.configurations] configurations.', keys: ['count.configurations'], section: 'experiments', line: 20 },
    ]);
    expect(r.unknownKeys).toEqual(['no.such_key']);
    expect(r.inTables).toBe(1);
  });

  test('a long sentence is cut around its first anchor, the cuts marked', () => {
    const long = `${'word '.repeat(150)}needs \\svcclaim{best.comparisons}{20{,}573} comparisons ${'more '.repeat(150)}end.`;
    const [c] = claimSentences(paper(`\\section{Method}\n${long}`), data).claims;
    expect(c?.sentence.length).toBeLessThanOrEqual(MAX_SENTENCE_CHARS + 2);
    expect(c?.sentence).toStartWith('…');
    expect(c?.sentence).toEndWith('…');
    expect(c?.sentence).toContain('needs 20,573 [best.comparisons] comparisons');
  });
});

describe('the answer', () => {
  test('is checked against its schema, the problem named for the correction', () => {
    expect(answerProblem({ findings: [], summary: 'fine' })).toBeNull();
    expect(answerProblem({ findings: [{ claim: 'x', key: null, verdict: 'supported', issue: '', suggestion: '' }], summary: 's', extra: 1 })).toBeNull();
    expect(answerProblem({ findings: [{ claim: 'x', verdict: 'wrong', issue: '', suggestion: '' }], summary: 's' })).toStartWith('findings[0].verdict: ');
    expect(answerProblem({ findings: [] })).toStartWith('summary: ');
  });

  test('findings are placed on the paper and given the science data value; unknown keys and unplaced findings are dropped with the reason', () => {
    const { claims } = claimSentences(TEX, data);
    const { findings, dropped } = groundFindings(
      [
        { claim: 'Shell sort always needs 12 comparisons against 13 for insertion sort.', key: 'baseline.comparisons', section: 'results', verdict: 'overstated', issue: '"always" is more than one array shows', suggestion: 'Say "on our array".' },
        { claim: 'The best is 50 times better than the baseline.', verdict: 'supported', issue: 'fine', suggestion: 'none' },
        { claim: 'x', key: 'made.up', verdict: 'unsupported', issue: 'i', suggestion: 's' },
        { claim: 'x', key: 'node_d.moves', verdict: 'unsupported', issue: 'i', suggestion: 's' },
        { claim: 'A sentence the paper does not have.', verdict: 'unsupported', issue: 'i', suggestion: 's' },
      ],
      claims,
      data,
    );
    expect(findings).toEqual([
      {
        claim: claims[1]?.sentence as string,
        key: 'baseline.comparisons',
        section: 'introduction',
        line: 8,
        verdict: 'overstated',
        issue: '"always" is more than one array shows',
        suggestion: 'Say "on our array".',
        revision: '[introduction] "always" is more than one array shows (claim anchor baseline.comparisons) — Say "on our array".',
        evidence: { key: 'baseline.comparisons', value: 1003112, printed: '1,003,112', metric: 'comparisons', node_id: 'node_root', what: 'comparisons of the baseline', configuration: { name: 'Insertion sort', label: 'draft', params: { algorithm: 'insertion', n: 2000, seed: 7 } } },
      },
      {
        claim: claims[2]?.sentence as string,
        key: 'improvement.comparisons.ratio',
        section: 'experiments',
        line: 11,
        verdict: 'supported',
        issue: '',
        suggestion: '',
        evidence: { key: 'improvement.comparisons.ratio', value: 48.76, printed: '48.8', metric: 'comparisons', node_id: null, what: 'times fewer comparisons than the baseline', configuration: null },
      },
    ]);
    expect(dropped.map((d) => [d.key, d.reason])).toEqual([
      ['made.up', "unknown key 'made.up': science_data.json has no such value"],
      ['node_d.moves', "key 'node_d.moves' is in no sentence that was reviewed"],
      [null, 'it names no key and quotes no sentence that was reviewed'],
    ]);
  });
});

describe('the model\'s numbers', () => {
  test('a number of the model\'s words that is no value of the science data is masked; values, as printed or within the tolerance, stay', () => {
    const mask = numberMasker(data, { absolute: 0, relative: 0.02 });
    expect(mask('It needed 20,573 comparisons, 48.8 times fewer (48.76 exactly), not 999 or 30,000.')).toBe('It needed 20,573 comparisons, 48.8 times fewer (48.76 exactly), not [a number not in the data] or [a number not in the data].');
    // within 2% of 20573; the digits of a key named are the key's; a minus sign is read with its number
    expect(mask('about 20,600 on node_a.moves, down −7 from 3.5e-4')).toBe('about 20,600 on node_a.moves, down [a number not in the data] from [a number not in the data]');
  });

  test('the issue, the suggestion, the point paper_refine reads and a dropped quote keep no number of the model\'s own', () => {
    const { claims } = claimSentences(TEX, data);
    const { findings, dropped } = groundFindings(
      [
        { claim: 'x', key: 'best.comparisons', verdict: 'unsupported', issue: 'only 3 seeds, not 20,573 runs of 12 arrays', suggestion: 'say 20,573 on one array, not 5000' },
        { claim: 'Made up 77 claims.', key: null, verdict: 'overstated', issue: 'i', suggestion: 's' },
      ],
      claims,
      data,
    );
    expect(findings[0]).toMatchObject({ issue: 'only [a number not in the data] seeds, not 20,573 runs of [a number not in the data] arrays', suggestion: 'say 20,573 on one array, not [a number not in the data]' });
    expect(findings[0]?.revision).toBe('[abstract] only [a number not in the data] seeds, not 20,573 runs of [a number not in the data] arrays (claim anchor best.comparisons) — say 20,573 on one array, not [a number not in the data]');
    expect(dropped[0]?.claim).toBe('Made up [a number not in the data] claims.');
  });
});

describe('semanticReview', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
    copyFileSync(FIXTURE, join(dir, 'science_data.json'));
    mkdirSync(join(dir, 'paper'));
    writeFileSync(join(dir, 'paper', 'main.tex'), TEX);
  });
  afterEach(() => removeDir(dir));

  type Fake = { asked: CompletionRequest[]; answer: () => Promise<unknown> };
  const job = (fake: Fake, more: Partial<SemanticReviewJob> = {}): SemanticReviewJob => ({
    checkpointDir: dir,
    texPath: join(dir, 'paper', 'main.tex'),
    phase: 'draft',
    connect: () => ({
      choice: () => ({ role: 'eval', model: 'fake-eval', backend: 'openai-compatible', baseUrl: null, why: '' }),
      unavailable: () => null,
      completeJson: async <T>(req: CompletionRequest) => {
        fake.asked.push(req);
        return (await fake.answer()) as T;
      },
    }),
    ...more,
  });
  const stored = (name = 'evidence_grounded_semantic_review.json') => JSON.parse(readFileSync(join(dir, 'evaluation', name), 'utf8'));

  test('the issues are what paper_refine places in the sections they name', async () => {
    const fake: Fake = {
      asked: [],
      answer: async () => ({ findings: [{ claim: 'Shell sort always needs', key: 'best.comparisons', verdict: 'overstated', issue: 'one array is not always', suggestion: 'Say "on our array".' }], summary: 'One claim says too much.' }),
    };
    const { record, path } = await semanticReview(job(fake));
    expect(path).toBe(join(dir, 'evaluation', 'evidence_grounded_semantic_review.json'));
    expect(stored()).toEqual(JSON.parse(JSON.stringify(record)));
    expect(record).toMatchObject({ status: 'ok', model: 'fake-eval', claims_total: 4, claims_reviewed: 4, claims_left_out: 0, counts: { supported: 0, overstated: 1, unsupported: 0 }, summary: 'One claim says too much.', metric_contract: false });
    expect(record.issues).toEqual(['[introduction] one array is not always (claim anchor best.comparisons) — Say "on our array".']);
    const { points, unplaced } = reviewPoints({}, null, record as unknown as Record<string, unknown>);
    expect([...points.entries()]).toEqual([['introduction', record.issues]]);
    expect(unplaced).toEqual([]);
    expect(fake.asked[0]?.meta).toMatchObject({ skill: 'evaluator-skill', op: 'semantic_review' });
  });

  test(`past ${MAX_CLAIMS} claim sentences the rest are left out, and the record says so`, async () => {
    const many = Array.from({ length: MAX_CLAIMS + 5 }, (_, i) => `Run ${'x'.repeat(i % 3)} needs \\svcclaim{best.comparisons}{20{,}573} comparisons.`).join(' ');
    writeFileSync(join(dir, 'paper', 'main.tex'), paper(`\\section{Experiments}\n${many}`));
    const fake: Fake = { asked: [], answer: async () => ({ findings: [], summary: 'ok' }) };
    const { record } = await semanticReview(job(fake));
    expect(record).toMatchObject({ claims_total: MAX_CLAIMS + 5, claims_reviewed: MAX_CLAIMS, claims_left_out: 5 });
    expect(record.notes).toContain(`5 of ${MAX_CLAIMS + 5} claim sentences were left out: one review reads the first ${MAX_CLAIMS}`);
    const system = String(fake.asked[0]?.messages[0]?.content);
    expect(system).toContain(`## Claims (${MAX_CLAIMS}; 5 more left out)`);
    expect(system).toContain(`- C${MAX_CLAIMS} (`);
    expect(system).not.toContain(`- C${MAX_CLAIMS + 1} (`);
  });

  test('no eval model, or one that cannot be set up: status unavailable with the reason, the record written', async () => {
    const none = await semanticReview(job({ asked: [], answer: async () => ({}) }, { connect: () => ({ ...job({ asked: [], answer: async () => ({}) }).connect(), unavailable: () => 'no model is configured for the eval role (model_eval)' }) }));
    expect(none.record).toMatchObject({ status: 'unavailable', reason: 'no eval model: no model is configured for the eval role (model_eval)', model: null, findings: [], issues: [] });
    const broken = await semanticReview(
      job({ asked: [], answer: async () => ({}) }, {
        phase: 'post_refine',
        connect: () => {
          throw new UnavailableError('the backend is down', 'start it');
        },
      }),
    );
    expect(broken.record).toMatchObject({ phase: 'post_refine', status: 'unavailable', reason: 'the backend is down (start it)' });
    expect(stored('evidence_grounded_semantic_review_post_refine.json').status).toBe('unavailable');
  });

  test('a paper without claim sentences asks no model', async () => {
    writeFileSync(join(dir, 'paper', 'main.tex'), paper('\\section{Method}\nNo numbers.'));
    const fake: Fake = { asked: [], answer: async () => ({}) };
    const { record } = await semanticReview(job(fake));
    expect(record).toMatchObject({ status: 'ok', claims_reviewed: 0, model: null });
    expect(fake.asked).toEqual([]);
  });

  test('without science data: an error naming the stage that makes it, and nothing written', async () => {
    removeDir(join(dir, 'science_data.json'));
    const err = await semanticReview(job({ asked: [], answer: async () => ({}) })).catch((e: unknown) => e as Error);
    expect((err as Error).message).toBe(`no science data at ${join(dir, 'science_data.json')}`);
    expect(existsSync(join(dir, 'evaluation'))).toBe(false);
  });
});
