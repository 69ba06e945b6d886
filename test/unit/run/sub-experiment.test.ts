import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConflictError, InputError, InvalidRecordError, NotFoundError } from '../../../src/core/errors.ts';
import { getSubExperiment, listChildren, listSubExperiments, runRecord } from '../../../src/run/run-records.ts';
import { launchSubExperiment, recursionLimitOf } from '../../../src/run/sub-experiment.ts';
import type { RunSupervisor } from '../../../src/run/supervisor.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { environOf, host, killAll } from './helpers.ts';

let dir: string;
let root: string;
let parent: string;
const supervisors: RunSupervisor[] = [];
const PARENT = '20261122100000_parent_run';

beforeEach(() => {
  dir = tempDir();
  root = join(dir, 'workspace', 'checkpoints');
  parent = join(root, PARENT);
  mkdirSync(parent, { recursive: true });
  writeFileSync(join(parent, 'experiment.md'), '# Parent goal\nfaster stencil\n');
  writeFileSync(
    join(parent, 'idea.json'),
    JSON.stringify({
      gap_analysis: 'g',
      primary_metric: 'gflops',
      higher_is_better: true,
      ideas: [{ title: 'tiling' }, { title: 'vectorise', overall_score: 0.7 }, { title: 'fuse loops' }],
      _root_choice: { action: 'root_keep' },
    }),
  );
  writeFileSync(join(parent, 'launch_config.json'), JSON.stringify({ llm_model: 'parent-model', llm_provider: 'openai-compatible', max_nodes: 9, profile: null }));
});
afterEach(async () => {
  for (const s of supervisors.splice(0)) await killAll(s);
  removeDir(dir);
});

function hostFor(env: Record<string, string> = {}) {
  const h = host(dir, join(dir, 'elsewhere'), { env: { PATH: process.env.PATH ?? '', HOME: dir, ...env } });
  supervisors.push(h.supervisor);
  return h;
}

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('launchSubExperiment', () => {
  test('a child beside its parent: meta.json, the pinned idea, the parent goal and choices', async () => {
    const r = await launchSubExperiment({ ...hostFor(), parentCheckpoint: parent, inherit_idea_index: 1, max_nodes: 4 });
    expect(r).toMatchObject({ ok: true, parent_run_id: PARENT, recursion_depth: 1, max_recursion_depth: 3 });
    expect(r.checkpoint_path.startsWith(`${root}/`)).toBe(true);
    const meta = json(join(r.checkpoint_path, 'meta.json'));
    expect(meta).toEqual({
      run_id: r.run_id,
      parent_run_id: PARENT,
      recursion_depth: 1,
      max_recursion_depth: 3,
      created_at: expect.any(String),
      checkpoint_dir: r.checkpoint_path,
      inherit_idea_index: 1,
    });
    const idea = json(join(r.checkpoint_path, 'idea.json'));
    expect(idea.ideas).toEqual([{ title: 'vectorise', overall_score: 0.7, _pinned: true }]);
    expect(idea._inherited_from).toEqual({ parent_run_id: PARENT, index: 1 });
    expect(idea.primary_metric).toBe('gflops');
    expect(idea._root_choice).toBeUndefined();
    expect(readFileSync(join(r.checkpoint_path, 'experiment.md'), 'utf8')).toBe('# Parent goal\nfaster stencil\n');
    const env = await environOf(r.pid);
    // the parent's recorded choices, the request's over them
    expect(env).toMatchObject({ SVC_MODEL: 'parent-model', SVC_BACKEND: 'openai-compatible', SVC_MAX_NODES: '4', SVC_CHECKPOINT_DIR: r.checkpoint_path });
    expect(json(join(r.checkpoint_path, 'launch_config.json'))).toMatchObject({ llm_model: 'parent-model', max_nodes: 4, launched_by: 'sub-experiment' });
  });

  test("the child searches with its parent's workflow and the template files it names", async () => {
    mkdirSync(join(parent, 'prompts'));
    writeFileSync(join(parent, 'prompts', 'bfts_select_prompt.md'), 'mine {experiment_goal} {memory_context} {candidates}');
    const wf = '# the parent run\nbfts:\n  select_prompt: prompts/bfts_select_prompt.md\n  max_depth: 2\nlineage_decision:\n  mode: every_node\n';
    writeFileSync(join(parent, 'workflow.yaml'), wf);
    writeFileSync(join(parent, 'launch_config.json'), JSON.stringify({ llm_model: 'parent-model', profile: null }));
    const r = await launchSubExperiment({ ...hostFor(), parentCheckpoint: parent });
    expect(readFileSync(join(r.checkpoint_path, 'workflow.yaml'), 'utf8')).toBe(wf);
    expect(readFileSync(join(r.checkpoint_path, 'prompts', 'bfts_select_prompt.md'), 'utf8')).toBe('mine {experiment_goal} {memory_context} {candidates}');
    // launch_config.json records what the child runs with
    expect(json(join(r.checkpoint_path, 'launch_config.json'))).toMatchObject({ max_depth: 2, llm_model: 'parent-model' });
  });

  test('without inherit_idea_index the child generates its own ideas, from its own goal when given', async () => {
    const r = await launchSubExperiment({ ...hostFor(), parentCheckpoint: parent, experiment_md: '# Child goal\nablate' });
    expect(existsSync(join(r.checkpoint_path, 'idea.json'))).toBe(false);
    expect(json(join(r.checkpoint_path, 'meta.json')).inherit_idea_index).toBeNull();
    expect(readFileSync(join(r.checkpoint_path, 'experiment.md'), 'utf8')).toBe('# Child goal\nablate');
  });

  test('depth grows by one per generation, and the limit refuses the next (409) creating nothing', async () => {
    const h = hostFor({ SVC_MAX_RECURSION_DEPTH: '2' });
    const a = await launchSubExperiment({ ...h, parentCheckpoint: parent });
    const b = await launchSubExperiment({ ...h, parentCheckpoint: a.checkpoint_path });
    expect([a.recursion_depth, b.recursion_depth]).toEqual([1, 2]);
    const before = readdirSync(root).length;
    const refused = launchSubExperiment({ ...h, parentCheckpoint: b.checkpoint_path });
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    await expect(launchSubExperiment({ ...h, parentCheckpoint: b.checkpoint_path })).rejects.toThrow(/at recursion depth 2, .*past max_recursion_depth 2/);
    expect(readdirSync(root).length).toBe(before);
  });

  test('a parent recorded limit is never exceeded by a larger request', async () => {
    writeFileSync(join(parent, 'meta.json'), JSON.stringify({ run_id: PARENT, parent_run_id: null, recursion_depth: 1, max_recursion_depth: 1 }));
    await expect(launchSubExperiment({ ...hostFor(), parentCheckpoint: parent, max_recursion_depth: 10 })).rejects.toBeInstanceOf(ConflictError);
  });

  test('max_recursion_depth 0 refuses every child', async () => {
    await expect(launchSubExperiment({ ...hostFor(), parentCheckpoint: parent, max_recursion_depth: 0 })).rejects.toThrow(/past max_recursion_depth 0/);
  });

  test('bad idea indices and a parent without ideas are refused', async () => {
    await expect(launchSubExperiment({ ...hostFor(), parentCheckpoint: parent, inherit_idea_index: 3 })).rejects.toThrow(/inherit_idea_index 3 is out of range: .* has 3 idea/);
    await expect(launchSubExperiment({ ...hostFor(), parentCheckpoint: parent, inherit_idea_index: -1 })).rejects.toBeInstanceOf(InputError);
    writeFileSync(join(parent, 'idea.json'), '{"ideas": "no"}');
    await expect(launchSubExperiment({ ...hostFor(), parentCheckpoint: parent, inherit_idea_index: 0 })).rejects.toThrow(/idea\.json/);
    removeDir(join(parent, 'idea.json'));
    await expect(launchSubExperiment({ ...hostFor(), parentCheckpoint: parent, inherit_idea_index: 0 })).rejects.toBeInstanceOf(ConflictError);
  });

  test('SVC_MAX_RECURSION_DEPTH: default 3, a bad value named', () => {
    expect(recursionLimitOf({})).toBe(3);
    expect(recursionLimitOf({ SVC_MAX_RECURSION_DEPTH: '5' })).toBe(5);
    expect(() => recursionLimitOf({ SVC_MAX_RECURSION_DEPTH: 'many' })).toThrow(/SVC_MAX_RECURSION_DEPTH must be a whole number/);
  });
});

describe('sub-experiment records', () => {
  test('listed from meta.json of checkpoints that name a parent; one by id; children of a run', async () => {
    const h = hostFor();
    const a = await launchSubExperiment({ ...h, parentCheckpoint: parent });
    const b = await launchSubExperiment({ ...h, parentCheckpoint: a.checkpoint_path });
    const all = listSubExperiments(root);
    expect(all.map((r) => r.run_id).sort()).toEqual([a.run_id, b.run_id].sort());
    expect(getSubExperiment(root, b.run_id)).toMatchObject({ run_id: b.run_id, parent_run_id: a.run_id, recursion_depth: 2, checkpoint_path: b.checkpoint_path });
    expect(listChildren(root, PARENT).map((r) => r.run_id)).toEqual([a.run_id]);
    expect(() => getSubExperiment(root, PARENT)).toThrow(/not a sub-experiment/);
  });

  test('unknown ids are not found; ids that are paths are bad input', () => {
    expect(() => getSubExperiment(root, '20990101000000_none')).toThrow(NotFoundError);
    for (const id of ['..', '../x', '../../etc', 'a/b', '.hidden', '', 'x\0y']) expect(() => getSubExperiment(root, id)).toThrow(InputError);
    // a checkpoints directory not made yet holds no runs
    expect(() => getSubExperiment(join(dir, 'none'), '20990101000000_none')).toThrow(NotFoundError);
  });

  test('a broken meta.json is reported in its record, not thrown', () => {
    const odd = join(root, '20261122110000_odd');
    mkdirSync(odd);
    writeFileSync(join(odd, 'launch_config.json'), '{}');
    writeFileSync(join(odd, 'meta.json'), '{not json');
    expect(listSubExperiments(root)).toEqual([]);
    expect(runRecord(odd).problem).toContain('meta.json');
    // asked for by id, the broken record is named, not passed off as no sub-experiment
    expect(() => getSubExperiment(root, '20261122110000_odd')).toThrow(InvalidRecordError);
    expect(() => getSubExperiment(root, '20261122110000_odd')).toThrow(/meta\.json/);
  });
});
