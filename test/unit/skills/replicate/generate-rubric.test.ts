import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { generateRubricTool } from '../../../../src/skills/replicate/generate-rubric.ts';
import { leavesOf } from '../../../../src/replicate/rubric.ts';
import { RubricNode } from '../../../../src/schema/ors-rubric.ts';
import { rejection } from '../../llm/helpers.ts';
import { callTool } from '../coding/tool-call.ts';
import { type Fixture, replicateFixture } from './replicate-env.ts';

let f: Fixture;
beforeEach(() => {
  f = replicateFixture();
});
afterEach(() => f.stop());

const generate = (args: Record<string, unknown> = {}, more?: Record<string, string>) => callTool(generateRubricTool, { paper_path: 'paper/paper.md', ...args }, f.env(more));
type Sent = { model: string; temperature?: number; seed?: number; messages: { role: string; content: string }[] };
const sent = () => f.server.requests.map((r) => r.body as Sent);
const promptOf = (s: Sent) => /<!-- prompt: ([\w/]+) -->/.exec(s.messages.map((m) => m.content).join('\n'))?.[1];
const rubricFiles = () => readdirSync(f.ckpt).filter((n) => n.includes('rubric'));
const rubricAt = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as RubricNode;

describe('generate_rubric', () => {
  test('two-stage: the axes, then each axis\'s leaves; the tree and its meta written beside it', async () => {
    const r = await generate();
    const path = join(f.ckpt, 'ors_rubric.json');
    expect(r.rubric_path).toBe(path);
    expect(r.meta_path).toBe(join(f.ckpt, 'ors_rubric.meta.json'));
    const root = rubricAt(path);
    expect(Value.Check(RubricNode, root)).toBe(true);
    expect(root.sub_tasks.map((a) => a.id)).toEqual(['code-development', 'code-execution', 'result-analysis']);
    const leaves = leavesOf(root);
    expect(leaves).toHaveLength(11);
    expect(new Set(leaves.map((l) => l.task_category))).toEqual(new Set(['Code Development', 'Code Execution', 'Result Analysis']));
    expect(leaves.map((l) => l.id)).toContain('result-analysis/best-matches');
    // the numbers of the leaves are the paper's own
    expect(leaves.find((l) => l.id === 'result-analysis/best-matches')?.requirements).toBe("The best gap ratio's comparisons in the run equal the paper's 20,573.");
    expect(leaves.find((l) => l.id === 'code-execution/runs-all-ratios')?.requirements).toContain('(2.2, 3, 4)');
    expect(leaves.find((l) => l.id === 'result-analysis/best-ratio-same')?.requirements).toBe("The gap ratio with the fewest comparisons in the run is 2.2, the paper's best.");
    expect(leaves.find((l) => l.id === 'code-development/counts-comparisons')?.requirements).toContain('of 2000 elements made with seed 42');

    const bytes = readFileSync(path);
    const meta = JSON.parse(readFileSync(r.meta_path, 'utf8'));
    expect(meta).toEqual({
      rubric_sha256: new Bun.CryptoHasher('sha256').update(bytes).digest('hex'),
      model: 'rubric-model',
      temperature: 0,
      seed: 0,
      two_stage: true,
      target_leaf_count: 50,
      leaf_count: 11,
      generated_at: expect.any(String),
      paper_sha256: new Bun.CryptoHasher('sha256').update(readFileSync(join(f.ckpt, 'paper', 'paper.md'))).digest('hex'),
    });
    expect(r.meta).toEqual(meta);
    expect(r.axes).toEqual([
      { id: 'code-development', weight: 2, leaves: 4 },
      { id: 'code-execution', weight: 1, leaves: 3 },
      { id: 'result-analysis', weight: 2, leaves: 4 },
    ]);
    // one call for the axes, then one per axis; temperature 0 and the seed on every one
    expect(sent().map(promptOf)).toEqual(['replicate/rubric_axes', 'replicate/rubric_leaves', 'replicate/rubric_leaves', 'replicate/rubric_leaves']);
    expect(sent().every((s) => s.model === 'rubric-model' && s.temperature === 0 && s.seed === 0)).toBe(true);
    // the target is shared out by the axes' weights: 50 × 2/5, 1/5, 2/5 (the calls arrive in any order)
    const asked = sent().slice(1).map((s) => `${/## This axis\n(\S+)/.exec(s.messages[0]?.content ?? '')?.[1]} ${/Give (\d+) leaves/.exec(s.messages[0]?.content ?? '')?.[1]}`);
    expect(asked.sort()).toEqual(['code-development 20', 'code-execution 10', 'result-analysis 20']);
  });

  test('one-stage: one call for the axes and their leaves, the same tree', async () => {
    const two = rubricAt((await generate()).rubric_path);
    const before = f.server.requests.length;
    const r = await generate({ two_stage: false, output_path: 'one.json', seed: 7 });
    expect(sent().slice(before).map(promptOf)).toEqual(['replicate/rubric_one_stage']);
    expect(sent()[before]?.seed).toBe(7);
    expect(rubricAt(r.rubric_path)).toEqual(two);
    expect(r.meta).toMatchObject({ two_stage: false, seed: 7, leaf_count: 11 });
    expect(existsSync(join(f.ckpt, 'one.meta.json'))).toBe(true);
  });

  test('deterministic: the same paper and model twice send the same requests (temperature 0, the seed) and give the same bytes and rubric_sha256', async () => {
    const a = await generate({ output_path: 'a.json' });
    const first = sent();
    const b = await generate({ output_path: 'b.json' });
    const second = sent().slice(first.length);
    // the scripted server answers alike whatever it is asked: the requests themselves must be the same
    // (each axis's call in flight at once, so in any order)
    const bodies = (reqs: Sent[]) => reqs.map((s) => JSON.stringify(s)).sort();
    expect(first).toHaveLength(4);
    expect(bodies(second)).toEqual(bodies(first));
    expect([...first, ...second].every((s) => s.temperature === 0 && s.seed === 0)).toBe(true);
    expect(a.meta.rubric_sha256).toBe(b.meta.rubric_sha256);
    expect(readFileSync(a.rubric_path)).toEqual(readFileSync(b.rubric_path));
    // canonical JSON: sorted keys, no spaces
    expect(readFileSync(a.rubric_path, 'utf8').startsWith('{"id":"root","requirements":')).toBe(true);
  });

  test('the target clamped to 50..400; the model argument stands in for SVC_MODEL_RUBRIC_GEN', async () => {
    expect((await generate({ target_leaf_count: 10, output_path: 'low.json' })).meta.target_leaf_count).toBe(50);
    expect((await generate({ target_leaf_count: 1000, output_path: 'high.json', model: 'other-model' })).meta).toMatchObject({ target_leaf_count: 400, model: 'other-model' });
    expect(sent().at(-1)?.model).toBe('other-model');
    // SVC_RUBRIC_GEN_TARGET_LEAVES when the argument is left out
    expect((await generate({ output_path: 'env.json' }, { SVC_RUBRIC_GEN_TARGET_LEAVES: '120' })).meta.target_leaf_count).toBe(120);
  });

  test('SVC_RUBRIC_GEN_TWO_STAGE and SVC_RUBRIC_GEN_TEMPERATURE when the arguments are left out; the arguments win', async () => {
    const r = await generate({}, { SVC_RUBRIC_GEN_TWO_STAGE: 'off', SVC_RUBRIC_GEN_TEMPERATURE: '0.3' });
    expect(r.meta).toMatchObject({ two_stage: false, temperature: 0.3 });
    expect(sent().map(promptOf)).toEqual(['replicate/rubric_one_stage']);
    expect(sent()[0]?.temperature).toBe(0.3);
    const again = await generate({ two_stage: true, temperature: 0, output_path: 'b.json' }, { SVC_RUBRIC_GEN_TWO_STAGE: 'off', SVC_RUBRIC_GEN_TEMPERATURE: '0.3' });
    expect(again.meta).toMatchObject({ two_stage: true, temperature: 0 });
  });

  test('a malformed answer is asked again once and the correction kept', async () => {
    f.server.push({ text: '{"axes": [{"id": "x", "requirements": "", "weight": 1}]}' });
    const r = await generate();
    expect(r.meta.leaf_count).toBe(11);
    const retry = sent()[1]?.messages ?? [];
    expect(retry.at(-1)?.content).toContain('axes[0].requirements is not a non-empty string');
  });

  test('malformed twice: one clear line, and nothing written but the call ledger', async () => {
    f.server.push({ text: 'no JSON here' }, { text: '{"axes": []}' });
    const err = await rejection(generate());
    expect(err.message).toBe('the rubric_gen model rubric-model gave no acceptable JSON in 2 attempts: the last answer was axes has 0 entries, at least 1 are needed');
    expect(err.message).not.toContain('\n');
    expect(rubricFiles()).toEqual([]);
  });

  test('a leaf answer malformed twice leaves nothing written either', async () => {
    f.server.push({ text: JSON.stringify({ axes: [{ id: 'a', requirements: 'r', weight: 1 }] }) }, { text: '{"leaves": [{"requirements": "x", "weight": 1}]}' }, { text: '{"leaves": [{"requirements": "x", "weight": -1, "task_category": "Code Development"}]}' });
    const err = await rejection(generate());
    expect(err.message).toContain('leaves[0].weight is not a positive number');
    expect(rubricFiles()).toEqual([]);
  });

  test('a leaf category outside the three is asked again; one in another case is kept in the usual spelling', async () => {
    f.server.push(
      { text: JSON.stringify({ axes: [{ id: 'a', requirements: 'r', weight: 1 }] }) },
      { text: '{"leaves": [{"requirements": "x", "weight": 1, "task_category": "Data Wrangling"}]}' },
      { text: '{"leaves": [{"requirements": "x", "weight": 1, "task_category": "result analysis"}]}' },
    );
    const r = await generate();
    expect(sent()[2]?.messages.at(-1)?.content).toContain('leaves[0].task_category is not one of Code Development, Code Execution, Result Analysis');
    expect(leavesOf(rubricAt(r.rubric_path)).map((l) => l.task_category)).toEqual(['Result Analysis']);
  });

  test('a paper_path or output_path outside the checkpoint is refused before any model call, nothing written', async () => {
    const outside = join(f.dir, 'paper.md');
    writeFileSync(outside, 'a paper');
    expect((await rejection(generate({ paper_path: outside }))).message).toContain('paper_path');
    expect((await rejection(generate({ paper_path: '../../paper.md' }))).message).toContain('paper_path');
    expect((await rejection(generate({ output_path: join(f.dir, 'r.json') }))).message).toContain('output_path');
    expect(f.server.requests).toHaveLength(0);
    expect(readdirSync(f.ckpt).sort()).toEqual(['paper']);
    expect(existsSync(join(f.dir, 'r.json'))).toBe(false);
  });

  test('paper_text instead of a file; no paper at all is an error', async () => {
    const r = await generate({ paper_path: undefined, paper_text: 'The best configuration needs 12 comparisons, against 90 for insertion sort.' });
    expect(leavesOf(rubricAt(r.rubric_path)).find((l) => l.id === 'result-analysis/baseline-matches')?.requirements).toContain("paper's 90.");
    expect((await rejection(generate({ paper_path: undefined })))).toMatchObject({ message: 'no paper: neither paper_path nor paper_text is given' });
  });
});
