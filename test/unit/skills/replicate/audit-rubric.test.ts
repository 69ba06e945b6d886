import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditRubricTool } from '../../../../src/skills/replicate/audit-rubric.ts';
import { generateRubricTool } from '../../../../src/skills/replicate/generate-rubric.ts';
import type { RubricNode } from '../../../../src/schema/ors-rubric.ts';
import { rejection } from '../../llm/helpers.ts';
import { callTool } from '../coding/tool-call.ts';
import { type Fixture, replicateFixture } from './replicate-env.ts';

let f: Fixture;
beforeEach(() => {
  f = replicateFixture();
});
afterEach(() => f.stop());

const leaf = (id: string, requirements: string): RubricNode => ({ id, requirements, weight: 1, task_category: 'Result Analysis', sub_tasks: [] });
const tree = (leaves: RubricNode[]): RubricNode => ({ id: 'root', requirements: 'reproduce', weight: 1, sub_tasks: [{ id: 'results', requirements: 'results', weight: 1, sub_tasks: leaves }] });
const audit = (rubric: RubricNode, args: Record<string, unknown> = {}) => {
  writeFileSync(join(f.ckpt, 'crafted.json'), JSON.stringify(rubric));
  return callTool(auditRubricTool, { rubric_path: 'crafted.json', paper_path: 'paper/paper.md', ...args }, f.env());
};

describe('audit_rubric', () => {
  test('a crafted rubric: each kind of flag found, and regeneration recommended above 20%', async () => {
    const r = await audit(
      tree([
        leaf('best', "The best gap ratio's comparisons in the run equal the paper's 20,573."),
        leaf('vague', 'The implementation is of good quality.'),
        leaf('measurable', 'The speedup is significant: at least 48.8 times fewer comparisons than insertion sort.'),
        leaf('best-again', "The best gap ratio's comparisons in the run equal the paper's 20,573!"),
        leaf('invented', 'The program sorts 5,000,000 elements.'),
        leaf('intent', 'The authors intended the array to be random.'),
        leaf('baseline', "The baseline's comparisons in the run equal the paper's 1,003,112."),
        leaf('gaps', 'Shell sort uses gaps that shrink by a constant ratio down to one.'),
        leaf('sorted', "The run's log shows that every output is sorted."),
        leaf('ratios', 'reproduce.sh runs ratio 2.2, ratio 3 and ratio 4 on the same array.'),
      ]),
    );
    expect(r).toMatchObject({
      leaves_total: 10,
      flagged: [
        { leaf_id: 'vague', flags: ['vague_qualifier'], reason: '"good" without a measurable criterion' },
        { leaf_id: 'best-again', flags: ['duplicate'], reason: 'near-identical to best' },
        { leaf_id: 'invented', flags: ['no_paper_evidence'], reason: 'the paper does not give 5,000,000' },
        { leaf_id: 'intent', flags: ['unverifiable'], reason: 'no output shows what the authors intended' },
      ],
      flagged_fraction: 0.4,
      recommend_regeneration: true,
      auditor_model: 'audit-model',
    });
    expect(r.rubric_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((f.server.requests[0]?.body as { model: string }).model).toBe('audit-model');
  });

  test('the demo rubric as generated passes; two flagged of ten is not above 20%', async () => {
    await callTool(generateRubricTool, { paper_path: 'paper/paper.md' }, f.env());
    const clean = await callTool(auditRubricTool, { rubric_path: 'ors_rubric.json', paper_path: 'paper/paper.md', auditor_model: 'other-auditor' }, f.env());
    expect(clean).toMatchObject({ leaves_total: 11, flagged: [], flagged_fraction: 0, recommend_regeneration: false, auditor_model: 'other-auditor' });
    const two = await audit(tree([leaf('v', 'A reasonable sort.'), leaf('w', 'An appropriate baseline.'), ...'abcdefgh'.split('').map((c) => leaf(c, `Leaf ${c} reports the comparisons of configuration ${c}.`))]));
    expect(two).toMatchObject({ leaves_total: 10, flagged_fraction: 0.2, recommend_regeneration: false });
    expect(two.flagged.map((x: { leaf_id: string }) => x.leaf_id)).toEqual(['v', 'w']);
  });

  test('an answer that leaves out a leaf is asked again, then an error', async () => {
    f.server.push({ text: '{"leaves": []}' }, { text: '{"leaves": [{"id": "nope", "no_paper_evidence": false, "unverifiable": false}]}' });
    const err = await rejection(audit(tree([leaf('a', 'The baseline is insertion sort.')])));
    expect(err.message).toBe("the rubric_audit model audit-model gave no acceptable JSON in 2 attempts: the last answer was leaves[0].id 'nope' is not a leaf of the list");
  });

  test('a file that is not a rubric tree, or outside the checkpoint, is refused', async () => {
    writeFileSync(join(f.ckpt, 'bad.json'), JSON.stringify({ id: 'root', requirements: 'x', weight: 0, sub_tasks: [] }));
    expect((await rejection(callTool(auditRubricTool, { rubric_path: 'bad.json', paper_path: 'paper/paper.md' }, f.env()))).message).toContain('is not a rubric tree: /weight');
    expect((await rejection(callTool(auditRubricTool, { rubric_path: '/etc/passwd', paper_path: 'paper/paper.md' }, f.env()))).message).toContain('rubric_path');
    expect(f.server.requests).toHaveLength(0);
  });
});
