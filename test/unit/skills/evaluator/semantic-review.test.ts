import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../../src/core/errors.ts';
import { evidenceGroundedSemanticReview } from '../../../../src/skills/evaluator/semantic-review.ts';
import { type ModelServer, startModelServer } from '../../../support/model-server.ts';
import { researcherReply } from '../../../support/scripted-researcher.ts';
import { type OpenAIChatRequest, promptName } from '../../../support/scripted-request.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { closedPort, rejection } from '../../llm/helpers.ts';
import { callTool } from '../coding/tool-call.ts';

// the semantic review against the scripted model server, as the evaluator skill serves it
const FIXTURE = join(import.meta.dir, '../../../fixtures/science-data/sorting.json');
const BODY = [
  '\\section{Introduction}',
  'Shell sort always needs \\svcclaim{best.comparisons}{20{,}573} comparisons, against \\svcclaim{baseline.comparisons}{1{,}003{,}112} for insertion sort.',
  '',
  '\\section{Experiments}',
  'The best configuration is \\svcclaim{improvement.comparisons.ratio}{48.8} times better than the baseline on our array.',
].join('\n');
const TEX = `\\documentclass{article}\n\\newcommand{\\svcclaim}[2]{#2}\n\\begin{document}\n${BODY}\n\\end{document}\n`;

let dir: string;
let ckpt: string;
let server: ModelServer;
beforeEach(() => {
  dir = tempDir();
  ckpt = join(dir, 'workspace', 'checkpoints', 'run1');
  mkdirSync(join(ckpt, 'paper'), { recursive: true });
  mkdirSync(join(dir, 'home'));
  copyFileSync(FIXTURE, join(ckpt, 'science_data.json'));
  writeFileSync(join(ckpt, 'paper', 'main.tex'), TEX);
  writeFileSync(join(ckpt, 'metric_contract.json'), JSON.stringify({ key: 'comparisons', metric_keyword: 'comparisons', higher_is_better: false, required_measured: ['comparisons'] }));
  server = startModelServer([], { respond: (b) => researcherReply(b as OpenAIChatRequest) });
});
afterEach(() => {
  server.stop();
  removeDir(dir);
});

const env = (more: Record<string, string> = {}) => ({
  PATH: process.env.PATH,
  HOME: join(dir, 'home'),
  SVC_CHECKPOINT_DIR: ckpt,
  SVC_BACKEND: 'openai-compatible',
  LLM_API_BASE: `${server.url}/v1`,
  SVC_MODEL: 'scripted-researcher',
  SVC_MODEL_EVAL: 'eval-model',
  SVC_LLM_MAX_RETRIES: '0',
  ...more,
});
const review = (args: Record<string, unknown> = {}, more?: Record<string, string>) => callTool(evidenceGroundedSemanticReview, { tex_path: 'paper/main.tex', ...args }, env(more));
const recordAt = (name: string) => JSON.parse(readFileSync(join(ckpt, 'evaluation', name), 'utf8'));
const DRAFT = 'evidence_grounded_semantic_review.json';
type Sent = { model: string; messages: { role: string; content: string }[] };
const sent = (i: number) => server.requests[i]?.body as Sent;

describe('evidence_grounded_semantic_review', () => {
  test('the anchored claims reviewed by the eval model: findings carry the science data value and the paper\'s sentence, not the model\'s', async () => {
    const r = await review();
    const { review_path, ...record } = r;
    expect(review_path).toBe(join(ckpt, 'evaluation', DRAFT));
    expect(recordAt(DRAFT)).toEqual(record);
    expect(record).toMatchObject({
      phase: 'draft',
      tex_path: join(ckpt, 'paper', 'main.tex'),
      tex_sha256: new Bun.CryptoHasher('sha256').update(TEX).digest('hex'),
      model: 'eval-model',
      status: 'ok',
      claims_total: 2,
      claims_reviewed: 2,
      claims_left_out: 0,
      counts: { supported: 1, overstated: 1, unsupported: 0 },
      // the model's counts are its own numbers, not measured ones
      summary: '[a number not in the data] of [a number not in the data] claims say more than the evidence shows.',
      metric_contract: true,
      dropped_findings: [],
    });
    const [over, fine] = record.findings;
    expect(over).toMatchObject({
      claim: 'Shell sort always needs 20,573 [best.comparisons] comparisons, against 1,003,112 [baseline.comparisons] for insertion sort.',
      key: 'best.comparisons',
      section: 'introduction',
      verdict: 'overstated',
      evidence: { key: 'best.comparisons', value: 20573, printed: '20,573', node_id: 'node_b', configuration: { name: 'Shell sort, ratio 2.2' } },
    });
    expect(fine).toMatchObject({ key: 'improvement.comparisons.ratio', section: 'experiments', verdict: 'supported', issue: '', evidence: { value: 48.76, node_id: null, configuration: null } });
    // the model quoted the sentence with 999 for its numbers and put 999 in its issue: no finding, point or summary carries it
    expect(JSON.stringify(record)).not.toContain('999');
    expect(record.issues).toEqual([`[introduction] "always" claims more than one array of [a number not in the data] integers and one seed can show (claim anchor best.comparisons) — Say that it needed fewer comparisons on the array measured.`]);
    expect(over.revision).toBe(record.issues[0]);

    expect(server.requests).toHaveLength(1);
    expect(sent(0).model).toBe('eval-model');
    expect(promptName(sent(0) as OpenAIChatRequest)).toBe('evaluator/semantic_review');
    const system = sent(0).messages.find((m) => m.role === 'system')?.content ?? '';
    expect(system).toContain('- best.comparisons: 20,573 (metric comparisons; node node_b, configuration "Shell sort, ratio 2.2" (improve); comparisons of the best configuration)');
    expect(system).toContain('"required_measured":["comparisons"]');
    const ledger = readFileSync(join(ckpt, 'cost_trace.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(ledger).toEqual([expect.objectContaining({ skill: 'evaluator-skill', component: 'evaluator', op: 'semantic_review' })]);
  });

  test('an answer that is not JSON is corrected once; still not JSON: status failed, the record written, no error', async () => {
    server.push({ text: 'The claims look fine to me.' }, { text: '{"findings": [' });
    const r = await review();
    expect(r).toMatchObject({ status: 'failed', model: 'eval-model', findings: [], issues: [], counts: { supported: 0, overstated: 0, unsupported: 0 } });
    expect(r.reason).toStartWith('the eval model eval-model gave no acceptable JSON in 2 attempts: the last answer was not valid JSON');
    expect(r.reason).not.toContain('\n');
    expect(recordAt(DRAFT)).toMatchObject({ status: 'failed', reason: r.reason });
    expect(server.requests).toHaveLength(2);
    expect(sent(1).messages.at(-1)?.content).toStartWith('Your answer was not valid JSON');
  });

  test('an answer of the wrong shape is sent back with what is wrong, and the corrected one is taken', async () => {
    server.push({ text: JSON.stringify({ findings: [{ claim: 'x', verdict: 'fine', issue: '', suggestion: '' }], summary: 's' }) });
    const r = await review();
    expect(r.status).toBe('ok');
    expect(sent(0).messages.at(-1)?.content).not.toContain('rejected');
    expect(sent(1).messages.at(-1)?.content).toStartWith('Your answer was rejected: findings[0].verdict: ');
    expect(r.counts).toEqual({ supported: 1, overstated: 1, unsupported: 0 });
  });

  test('a model that cannot be reached: status unavailable and the record says why', async () => {
    const r = await review({}, { LLM_API_BASE: `http://127.0.0.1:${closedPort()}/v1` });
    expect(r).toMatchObject({ status: 'unavailable', model: 'eval-model', findings: [] });
    expect(r.reason).toStartWith('no model backend reachable at http://127.0.0.1:');
    expect(recordAt(DRAFT).status).toBe('unavailable');
  });

  test('a finding naming a key the science data lacks is flagged and left out of the counts and issues', async () => {
    server.push({
      text: JSON.stringify({
        findings: [
          { claim: 'Shell sort always needs', key: 'best.speedup', verdict: 'unsupported', issue: 'made up', suggestion: 'drop it' },
          { claim: 'The best configuration is', key: 'improvement.comparisons.ratio', verdict: 'supported', issue: '', suggestion: '' },
        ],
        summary: 'One is fine.',
      }),
    });
    const r = await review();
    expect(r.dropped_findings).toEqual([{ claim: 'Shell sort always needs', key: 'best.speedup', verdict: 'unsupported', reason: "unknown key 'best.speedup': science_data.json has no such value" }]);
    expect(r.counts).toEqual({ supported: 1, overstated: 0, unsupported: 0 });
    expect(r.issues).toEqual([]);
  });

  test('the post_refine phase writes its own record beside the draft\'s', async () => {
    await review();
    writeFileSync(join(ckpt, 'paper', 'main_refined.tex'), TEX.replace('always needs', 'needed'));
    const r = await review({ tex_path: join(ckpt, 'paper', 'main_refined.tex'), phase: 'post_refine', checkpoint_dir: ckpt });
    expect(r.review_path).toBe(join(ckpt, 'evaluation', 'evidence_grounded_semantic_review_post_refine.json'));
    expect(r).toMatchObject({ phase: 'post_refine', status: 'ok', counts: { supported: 2, overstated: 0, unsupported: 0 }, issues: [] });
    expect(recordAt(DRAFT)).toMatchObject({ phase: 'draft', counts: { overstated: 1 } });
  });

  test('bad input is one line with the fix, and nothing is written', async () => {
    writeFileSync(join(dir, 'outside.tex'), TEX);
    const outside = await rejection(review({ tex_path: join(dir, 'outside.tex') }));
    expect(outside).toBeInstanceOf(InputError);
    expect(outside.message).toBe(`tex_path '${join(dir, 'outside.tex')}' is outside ${ckpt}`);
    expect((await rejection(review({ tex_path: '../../../outside.tex' }))).message).toContain('is outside');
    expect((await rejection(review({ tex_path: 'paper/none.tex' }))).message).toBe(`tex_path '${join(ckpt, 'paper', 'none.tex')}' does not exist`);
    expect((await rejection(review({ checkpoint_dir: dir }))).message).toStartWith(`checkpoint_dir '${dir}' is outside `);
    removeDir(join(ckpt, 'science_data.json'));
    expect((await rejection(review())).message).toBe(`no science data at ${join(ckpt, 'science_data.json')}`);
    expect(existsSync(join(ckpt, 'evaluation'))).toBe(false);
    expect(server.requests).toHaveLength(0);
  });
});
