import { afterEach, beforeEach, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipelineSummary } from '../../../src/pipeline/run.ts';
import { writeScienceCheckpoint } from '../../support/science-checkpoint.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { loopSkillCommand, runCheckpointPipeline } from './pipeline-harness.ts';

let root: string;
let ckpt: string;
beforeEach(() => {
  root = tempDir();
  ckpt = writeScienceCheckpoint(root);
});
afterEach(() => removeDir(root));

test('a tool that declines ({skipped: true, reason}) makes its stage skipped with that reason; the record it wrote stays', async () => {
  writeFileSync(
    join(ckpt, 'workflow.yaml'),
    `skills:
  - { name: loop-skill, path: ${loopSkillCommand(root)}, phase: paper }
pipeline:
  - stage: finalize
    skill: loop-skill
    tool: decline
    inputs: { file: "{{checkpoint_dir}}/final.json", reason: "the final claim gate (strict mode) blocks it" }
    outputs: { file: "{{checkpoint_dir}}/final.json" }
  - stage: after
    skill: loop-skill
    tool: draw_figures
    depends_on: [finalize]
    outputs: { file: "{{checkpoint_dir}}/after.json" }
`,
  );
  const r = await runCheckpointPipeline(ckpt, root, {});
  const finalize = r.stages.find((s) => s.stage === 'finalize');
  expect(finalize).toEqual({ stage: 'finalize', status: 'skipped', detail: 'the final claim gate (strict mode) blocks it', output: join(ckpt, 'final.json') });
  expect(JSON.parse(readFileSync(join(ckpt, 'final.json'), 'utf8'))).toEqual({ declined: 'the final claim gate (strict mode) blocks it' });
  expect(r.log).toContain('finalize: skipped (the final claim gate (strict mode) blocks it)');
  // what it wrote is its output: a stage after it still runs
  expect(r.stages.find((s) => s.stage === 'after')?.status).toBe('done');
  expect(pipelineSummary(r)).toContain('1 skipped');
});
