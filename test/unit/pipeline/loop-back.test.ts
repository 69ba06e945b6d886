import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadWorkflow } from '../../../src/core/config/workflow.ts';
import { feedbackText, loopBack } from '../../../src/pipeline/loop-back.ts';
import { writeScienceCheckpoint } from '../../support/science-checkpoint.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { loopSkillCommand, runCheckpointPipeline } from './pipeline-harness.ts';

let root: string;
let ckpt: string;
let calls: string;
beforeEach(() => {
  root = tempDir();
  ckpt = writeScienceCheckpoint(root);
  calls = join(root, 'calls.jsonl');
});
afterEach(() => removeDir(root));

/** draw (skip_if_exists its output), review looping back to draw, and a stage after both. */
function loopWorkflow(review: string): void {
  writeFileSync(
    join(ckpt, 'workflow.yaml'),
    `skills:
  - { name: loop-skill, path: ${loopSkillCommand(root)}, phase: paper }
pipeline:
  - stage: draw
    skill: loop-skill
    tool: draw_figures
    inputs: { feedback: "{{vlm_feedback}}" }
    outputs: { file: "{{checkpoint_dir}}/figures.json" }
    skip_if_exists: "{{checkpoint_dir}}/figures.json"
  - stage: review
    skill: loop-skill
    tool: review_figures
    depends_on: [draw]
    inputs: { figures: "{{stages.draw.outputs.file}}" }
    outputs: { file: "{{checkpoint_dir}}/review.json" }
    loop_back_to: draw
${review}
  - stage: after
    skill: loop-skill
    tool: draw_figures
    depends_on: [review]
    inputs: { review: "{{stages.review.outputs.file}}" }
    outputs: { file: "{{checkpoint_dir}}/after.json" }
`,
  );
}
const called = () =>
  readFileSync(calls, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { tool: string; args: Record<string, string> });
const env = (scores: string) => ({ LOOP_CALLS: calls, LOOP_STATE: join(root, 'reviews'), LOOP_SCORES: scores });

describe('loop_back_to', () => {
  test('a score below loop_threshold runs the range again from the target, with the review as {{vlm_feedback}}', async () => {
    loopWorkflow('    loop_threshold: 0.7');
    const r = await runCheckpointPipeline(ckpt, root, env('0.3,0.9'));
    expect(r.failure).toBeNull();
    expect(called().map((c) => c.tool)).toEqual(['draw_figures', 'review_figures', 'draw_figures', 'review_figures', 'draw_figures']);
    const [first, , again] = called();
    expect(first?.args.feedback).toBe('');
    expect(again?.args.feedback).toBe('score: 0.3\nissues:\n- figure 1 has no axis labels\nsuggestions:\n- label both axes\nreview 1');
    // the skip_if_exists file of the range was deleted, so draw ran again rather than being skipped
    expect(r.log.filter((l) => !l.startsWith('pre-flight'))).toEqual([
      `draw: done (${join(ckpt, 'figures.json')})`,
      `review: done (${join(ckpt, 'review.json')})`,
      'review: score 0.3 is below loop_threshold 0.7; back to draw with its feedback (loop-back 1 of 2)',
      `draw: done (${join(ckpt, 'figures.json')})`,
      `review: done (${join(ckpt, 'review.json')})`,
      `after: done (${join(ckpt, 'after.json')})`,
    ]);
    // each stage reported once, by its last run
    expect(r.stages.map((s) => `${s.stage} ${s.status}`)).toEqual(['draw done', 'review done', 'after done']);
    expect(JSON.parse(readFileSync(join(ckpt, 'review.json'), 'utf8')).score).toBe(0.9);
  });

  test('loop_max_iterations bounds the loop-backs (default 2); then the pipeline goes on', async () => {
    loopWorkflow('    loop_threshold: 0.7');
    const r = await runCheckpointPipeline(ckpt, root, env('0.1'));
    expect(called().filter((c) => c.tool === 'review_figures')).toHaveLength(3);
    expect(r.log).toContain('review: score 0.1 is below loop_threshold 0.7, but its 2 loop-backs are spent; going on');
    expect(r.stages.map((s) => `${s.stage} ${s.status}`)).toEqual(['draw done', 'review done', 'after done']);

    writeFileSync(calls, '');
    writeFileSync(join(root, 'reviews'), '0');
    loopWorkflow('    loop_threshold: 0.7\n    loop_max_iterations: 0');
    const none = await runCheckpointPipeline(ckpt, root, env('0.1'));
    expect(called().filter((c) => c.tool === 'review_figures')).toHaveLength(1);
    expect(none.log).toContain('review: score 0.1 is below loop_threshold 0.7, but its 0 loop-backs are spent; going on');
  });

  test('a score at the threshold, or no threshold, does not loop; loop_when_result_key does', async () => {
    loopWorkflow('    loop_threshold: 0.7');
    await runCheckpointPipeline(ckpt, root, env('0.7'));
    expect(called().filter((c) => c.tool === 'review_figures')).toHaveLength(1);
    writeFileSync(calls, '');
    loopWorkflow('    loop_when_result_key: issues\n    loop_max_iterations: 1');
    const r = await runCheckpointPipeline(ckpt, root, env('0.95'));
    expect(called().filter((c) => c.tool === 'review_figures')).toHaveLength(2);
    expect(r.log).toContain('review: issues is set in its result; back to draw with its feedback (loop-back 1 of 1)');
  });

  test('skip_if_exists: a usable output skips the stage; one holding an error is made again', async () => {
    loopWorkflow('    loop_threshold: 0.7');
    writeFileSync(join(ckpt, 'figures.json'), '{"figures": ["fig1.pdf"]}');
    const skipped = await runCheckpointPipeline(ckpt, root, env('0.9'));
    expect(skipped.log).toContain(`draw: skipped (${join(ckpt, 'figures.json')} is already there; delete it to run the stage again)`);
    expect(called().map((c) => c.tool)).toEqual(['review_figures', 'draw_figures']);
    writeFileSync(calls, '');
    writeFileSync(join(ckpt, 'figures.json'), '{"error": "stage failed"}');
    const again = await runCheckpointPipeline(ckpt, root, env('0.9'));
    expect(again.log).toContain(`draw: done (${join(ckpt, 'figures.json')})`);
    expect(JSON.parse(readFileSync(join(ckpt, 'figures.json'), 'utf8')).drawn).toBe(true);
  });

  test('bad input: loop_back_to a stage below, or unknown, is refused when the workflow loads', () => {
    writeFileSync(join(ckpt, 'workflow.yaml'), 'pipeline:\n  - stage: a\n    loop_back_to: b\n  - stage: b\n');
    expect(() => loadWorkflow({ checkpointDir: ckpt, env: {} })).toThrow(`${join(ckpt, 'workflow.yaml')}: pipeline[0].loop_back_to: 'b' is not above 'a'; a loop goes back to an earlier stage`);
    writeFileSync(join(ckpt, 'workflow.yaml'), 'pipeline:\n  - stage: a\n    loop_back_to: zz\n');
    expect(() => loadWorkflow({ checkpointDir: ckpt, env: {} })).toThrow("pipeline[0].loop_back_to: unknown stage 'zz'");
    writeFileSync(join(ckpt, 'workflow.yaml'), 'pipeline:\n  - stage: a\n    loop_back_to: a\n    loop_max_iterations: -1\n');
    expect(() => loadWorkflow({ checkpointDir: ckpt, env: {} })).toThrow('loop_max_iterations');
    expect(existsSync(join(ckpt, 'review.json'))).toBe(false);
  });
});

describe('loopBack', () => {
  const stage = { stage: 'review', loop_back_to: 'draw', loop_threshold: 0.5 };
  test('reads the score of an object or of JSON text; anything else does not loop', () => {
    expect(loopBack(stage, { score: 0.2 }, 0)).toMatchObject({ target: 'draw', max: 2, exhausted: false, feedback: 'score: 0.2' });
    expect(loopBack(stage, '{"score": 0.2}', 2)).toMatchObject({ exhausted: true });
    expect(loopBack(stage, { score: '0.2' }, 0)).toBeNull();
    expect(loopBack(stage, 'not json', 0)).toBeNull();
    expect(loopBack({ stage: 'x', loop_threshold: 0.5 }, { score: 0 }, 0)).toBeNull();
  });
  test('feedback flattens score, issues, suggestions and the review text', () => {
    expect(feedbackText({ score: 0.4, issues: 'one issue', suggestions: [{ fig: 2, fix: 'bigger font' }], review_text: ' ok ' })).toBe('score: 0.4\nissues:\n- one issue\nsuggestions:\n- {"fig":2,"fix":"bigger font"}\nok');
    expect(feedbackText({})).toBe('');
  });
});
