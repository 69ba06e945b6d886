import { afterEach, beforeEach, expect, test } from 'bun:test';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledWorkflow } from '../../../src/core/config/workflow.ts';
import { pipelineProgress } from '../../../src/pipeline/stage-progress.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

test('every enabled stage in order, done once its output is usable, pending before', () => {
  const wf = bundledWorkflow();
  const before = pipelineProgress(dir, dir, wf);
  expect(before.map((s) => s.stage)).toEqual(wf.pipeline.filter((s) => s.enabled !== false).map((s) => s.stage));
  expect(before.every((s) => s.status === 'pending' || s.status === 'unknown')).toBe(true);
  writeFileSync(join(dir, 'related_refs.json'), JSON.stringify({ papers: [] }));
  // an output that records an error is not a usable one: the stage would run again
  writeFileSync(join(dir, 'science_data.json'), JSON.stringify({ error: 'no data' }));
  const after = pipelineProgress(dir, dir, wf);
  expect(after.find((s) => s.stage === 'search_related_work')?.status).toBe('done');
  expect(after.find((s) => s.stage === 'transform_data')?.status).toBe('pending');
});

test('a disabled stage is left out; a stage without an output file is unknown', () => {
  const wf = bundledWorkflow();
  const [first, second, ...rest] = wf.pipeline;
  const changed = { ...wf, pipeline: [{ ...first!, enabled: false }, { ...second!, outputs: undefined }, ...rest] };
  const progress = pipelineProgress(dir, dir, changed);
  expect(progress.map((s) => s.stage)).not.toContain(first!.stage);
  expect(progress[0]).toEqual({ stage: second!.stage, status: 'unknown' });
});

test('an output rewritten in place is judged again: the verdicts kept between polls follow the file', () => {
  const wf = bundledWorkflow();
  const status = () => pipelineProgress(dir, dir, wf).find((s) => s.stage === 'transform_data')?.status;
  const file = join(dir, 'science_data.json');
  writeFileSync(file, JSON.stringify({ error: 'no data' }));
  expect(status()).toBe('pending');
  writeFileSync(file, JSON.stringify({ configurations: [{ name: 'a', metrics: { comparisons: 1 } }] }));
  expect(status()).toBe('done');
  rmSync(file);
  expect(status()).toBe('pending');
});
