import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledWorkflow } from '../../../src/core/config/workflow.ts';
import { ConflictError, InputError, InvalidRecordError } from '../../../src/core/errors.ts';
import { planStage, resumeRun, runPostSearchStage } from '../../../src/run/run-stage.ts';
import type { RunSupervisor } from '../../../src/run/supervisor.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { cmdlineOf, endStarted, environOf, host, killAll } from './helpers.ts';

let dir: string;
let ck: string;
const supervisors: RunSupervisor[] = [];
const strays: Bun.Subprocess[] = [];
beforeEach(() => {
  dir = tempDir();
  ck = join(dir, 'workspace', 'checkpoints', '20261122100000_run');
  mkdirSync(ck, { recursive: true });
  writeFileSync(join(ck, 'experiment.md'), 'goal');
  writeFileSync(join(ck, 'tree.json'), JSON.stringify({ run_id: '20261122100000_run', nodes: [] }));
});
afterEach(async () => {
  await endStarted(supervisors, strays);
  removeDir(dir);
});

function hostFor() {
  const h = host(dir, join(dir, 'workspace', 'checkpoints'));
  supervisors.push(h.supervisor);
  return h;
}

describe('planStage', () => {
  const wf = bundledWorkflow();
  test.each(['bfts', 'resume', 'generate_idea', 'select_and_run', 'evaluate', 'frontier_expand'])('%s resumes the search', (stage) => {
    expect(planStage(stage, wf)).toEqual({ kind: 'search', stage });
  });
  test.each([
    'paper',
    'write_paper',
    'review_paper',
    'generate_ear',
    'ors_grade',
    'search_related_work',
    'transform_data',
    'generate_figures',
    'vlm_review_figures',
    'link_paper_claims_draft',
    'claim_evidence_hard_gate_draft',
    'evidence_grounded_semantic_review',
    'merge_reviews',
    'paper_refine',
    'render_paper',
    'link_paper_claims_final',
    'evidence_grounded_semantic_review_post_refine',
    'claim_evidence_hard_gate_final',
    'finalize_paper',
  ])('%s is a post-search stage', (stage) => {
    expect(planStage(stage, wf)).toEqual({ kind: 'post_search', stage });
  });
  test('an unknown stage is refused naming the known ones', () => {
    expect(() => planStage('compile', wf)).toThrow(InputError);
    try {
      planStage('compile', wf);
    } catch (err) {
      expect((err as InputError).message).toBe("unknown stage 'compile'");
      for (const s of ['bfts', 'resume', 'generate_idea', 'paper', 'write_paper']) expect((err as InputError).hint).toContain(s);
    }
  });
  test.each([[undefined], [''], [3], [null]])('a missing or non-string stage (%j) is refused', (stage: unknown) => {
    expect(() => planStage(stage, wf)).toThrow(/stage is required/);
  });
});

describe('resumeRun', () => {
  test('starts `resume <ckpt>` with the choices launch_config.json recorded, in the environment only', async () => {
    writeFileSync(join(ck, 'launch_config.json'), JSON.stringify({ llm_model: 'm1', llm_provider: 'openai-compatible', max_nodes: 6, max_depth: 2, parallel: 3, max_react: 9, timeout_node_s: 60, profile: 'laptop', llm_base_url: 'http://127.0.0.1:1/v1' }));
    const h = hostFor();
    const r = await resumeRun({ ...h, checkpoint: ck });
    expect(await cmdlineOf(r.pid)).toEqual([...(h.program ?? []), 'resume', ck]);
    expect(await environOf(r.pid)).toMatchObject({
      SVC_CHECKPOINT_DIR: ck,
      SVC_MODEL: 'm1',
      SVC_BACKEND: 'openai-compatible',
      SVC_MAX_NODES: '6',
      SVC_MAX_DEPTH: '2',
      SVC_PARALLEL: '3',
      SVC_MAX_REACT: '9',
      SVC_TIMEOUT_NODE: '60',
      SVC_PROFILE: 'laptop',
      LLM_API_BASE: 'http://127.0.0.1:1/v1',
    });
    expect(h.supervisor.forCheckpoint(ck)).toMatchObject({ kind: 'resume', running: true });
  });

  test('a checkpoint started from the command line (no launch_config.json) resumes with the inherited environment', async () => {
    const r = await resumeRun({ ...hostFor(), checkpoint: ck });
    expect((await environOf(r.pid)).SVC_MODEL).toBeUndefined();
  });

  test('a checkpoint whose recorded run is alive is refused; that process is left alone', async () => {
    const other = Bun.spawn(['sleep', '30']);
    strays.push(other);
    writeFileSync(join(ck, '.svc_pid'), `${other.pid}\n`);
    await expect(resumeRun({ ...hostFor(), checkpoint: ck })).rejects.toBeInstanceOf(ConflictError);
    expect(other.exitCode).toBeNull();
  });

  test('a broken launch_config.json is refused, naming it', async () => {
    writeFileSync(join(ck, 'launch_config.json'), '{"max_nodes": "many"}');
    await expect(resumeRun({ ...hostFor(), checkpoint: ck })).rejects.toBeInstanceOf(InvalidRecordError);
  });
});

describe('runPostSearchStage', () => {
  test('paper starts `paper <ckpt>`; one stage starts `paper <ckpt> --stage <stage>`', async () => {
    const h = hostFor();
    const all = await runPostSearchStage({ ...h, checkpoint: ck, stage: 'paper' });
    expect(await cmdlineOf(all.pid)).toEqual([...(h.program ?? []), 'paper', ck]);
    expect((await environOf(all.pid)).SVC_CHECKPOINT_DIR).toBe(ck);
    expect(h.supervisor.forCheckpoint(ck)).toMatchObject({ kind: 'paper' });
    await killAll(h.supervisor);
    const one = await runPostSearchStage({ ...hostFor(), checkpoint: ck, stage: 'ear_curate' });
    expect(await cmdlineOf(one.pid)).toEqual([...(h.program ?? []), 'paper', ck, '--stage', 'ear_curate']);
  });

  test('a checkpoint whose recorded run is alive is refused', async () => {
    const other = Bun.spawn(['sleep', '30']);
    strays.push(other);
    writeFileSync(join(ck, '.svc_pid'), `${other.pid}\n`);
    await expect(runPostSearchStage({ ...hostFor(), checkpoint: ck, stage: 'paper' })).rejects.toBeInstanceOf(ConflictError);
    expect(other.exitCode).toBeNull();
  });
});
