import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/core/config/config.ts';
import { createModelClient } from '../../../src/llm/client.ts';
import { recordArtifacts } from '../../../src/memory/research/artifacts.ts';
import { NodeMemory } from '../../../src/memory/research/node-memory.ts';
import { startMemoryServer } from '../../../src/memory/server.ts';
import { type ModelServer, startModelServer } from '../../support/model-server.ts';
import { ROOT_ID, RUN_ID, SORTING_NODES, writeScienceCheckpoint } from '../../support/science-checkpoint.ts';
import { type OpenAIChatRequest, researcherReply } from '../../support/scripted-researcher.ts';
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

/** A pipeline whose last stage's inputs are echoed back by the test skill; `first` puts a stage before it. */
function echoStage(inputs: string, first = false): void {
  const before = first ? '  - stage: first\n    skill: loop-skill\n    tool: draw_figures\n    outputs: { file: "{{checkpoint_dir}}/first.json" }\n' : '';
  writeFileSync(
    join(ckpt, 'workflow.yaml'),
    `skills:\n  - { name: loop-skill, path: ${loopSkillCommand(root)}, phase: paper }\npipeline:\n${before}  - stage: echo\n    skill: loop-skill\n    tool: draw_figures\n    inputs:\n${inputs}\n    outputs: { file: "{{checkpoint_dir}}/echo.json" }\n`,
  );
}
const echoed = () => JSON.parse(readFileSync(join(ckpt, 'echo.json'), 'utf8')).args as Record<string, string>;
const json = (name: string) => JSON.parse(readFileSync(join(ckpt, name), 'utf8'));

describe('pipeline pre-flight', () => {
  test("nodes_tree.json carries each node's work directory and results.json, next to what the search recorded", async () => {
    echoStage('      x: "1"');
    const r = await runCheckpointPipeline(ckpt, root, { LOOP_CALLS: calls });
    expect(r.failure).toBeNull();
    const tree = json('nodes_tree.json');
    expect(tree.experiment_goal).toStartWith('# Fewer comparisons');
    const byId = Object.fromEntries(tree.nodes.map((n: { id: string }) => [n.id, n]));
    const work = (id: string) => join(root, 'workspace', 'experiments', RUN_ID, id);
    expect(byId[ROOT_ID]).toMatchObject({ label: 'draft', has_real_data: true, eval_summary: `summary of ${ROOT_ID}`, metrics: { comparisons: 1000 }, work_dir: work(ROOT_ID), results_path: join(work(ROOT_ID), 'results.json') });
    expect(byId.node_aaaa0005).toMatchObject({ results_path: null, work_dir: work('node_aaaa0005') });
    expect(tree.nodes).toHaveLength(SORTING_NODES.length);
    expect(r.log[0]).toBe(`pre-flight: 6 nodes, 5 with real data; verified_context.json: 0 verified results (memory unavailable: ${json('verified_context.json').note.slice('memory unavailable: '.length)})`);
  });

  test('every template variable of the spec resolves; keywords are asked of the model only when a stage uses them', async () => {
    const vars = ['ckpt', 'checkpoint_dir', 'ari_root', 'llm.model', 'llm.base_url', 'resources.cpus', 'resources.timeout_minutes', 'author_name', 'vlm_feedback', 'paper_context', 'keywords', 'claim_gate_policy', 'primary_metric', 'higher_is_better', 'idea_context'];
    echoStage(`${vars.map((v) => `      ${v.replace('.', '_')}: "{{${v}}}"`).join('\n')}\n      prior: "{{stages.first.outputs.file}}"`, true);
    writeFileSync(join(ckpt, 'workflow.yaml'), `${readFileSync(join(ckpt, 'workflow.yaml'), 'utf8')}author_name: Ada\npaper_context: "A study for the sorting workshop."\n`);
    const server: ModelServer = startModelServer([], { respond: (body) => researcherReply(body as OpenAIChatRequest) });
    try {
      const env = { SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'scripted-researcher', SVC_LLM_RECORD: 'off', SVC_CHECKPOINT_DIR: ckpt, HOME: root, SVC_ROOT: root };
      const model = createModelClient({ cfg: loadConfig({ env, checkpointDir: ckpt }), checkpointDir: ckpt, env });
      const r = await runCheckpointPipeline(ckpt, root, { LOOP_CALLS: calls }, model);
      expect(r.stages.map((s) => `${s.status} ${s.detail}`)).toEqual([`done ${join(ckpt, 'first.json')}`, `done ${join(ckpt, 'echo.json')}`]);
      const a = echoed();
      expect(Object.entries(a).filter(([, v]) => /\{\{/.test(v))).toEqual([]);
      expect(a.prior).toBe(join(ckpt, 'first.json'));
      expect(a).toMatchObject({ ckpt, checkpoint_dir: ckpt, ari_root: root, llm_model: 'qwen3:4b', llm_base_url: '', resources_cpus: '4', resources_timeout_minutes: '60', author_name: 'Ada', vlm_feedback: '' });
      expect(a).toMatchObject({ primary_metric: 'comparisons', higher_is_better: 'false', idea_context: 'Geometric gaps: Shell sort with a constant gap ratio.' });
      expect(JSON.parse(a.claim_gate_policy as string).mode).toBe('warn');
      expect(a.keywords).toBe('Shell sort gap sequence, geometric gap ratio, insertion sort comparisons, comparison sorting');
      expect(a.paper_context).toStartWith('A study for the sorting workshop.\n\n## Idea\nGeometric gaps: Shell sort with a constant gap ratio.\n\n## Experiment\n# Fewer comparisons');
      expect(a.paper_context).toContain(`## Best nodes\n- draft: a variant (${ROOT_ID}, score 0.500): summary of ${ROOT_ID}`);
      expect(r.log).toContain('pre-flight: keywords Shell sort gap sequence, geometric gap ratio, insertion sort comparisons, comparison sorting');
      const asked = server.requests.length;
      expect(asked).toBe(1);

      // no stage uses {{keywords}}: no model call
      echoStage('      x: "{{paper_context}}"');
      await runCheckpointPipeline(ckpt, root, { LOOP_CALLS: calls }, model);
      expect(server.requests.length).toBe(asked);
    } finally {
      server.stop();
    }
  });

  test('without a model, deterministic keywords with a note; science_data.json joins the paper context once it exists', async () => {
    echoStage('      k: "{{keywords}}"\n      p: "{{paper_context}}"');
    let r = await runCheckpointPipeline(ckpt, root, { LOOP_CALLS: calls }, 'SVC_MODEL is not set');
    expect(echoed().k).toBe('comparisons, sort, geometric, gaps, shell, constant');
    expect(r.log).toContain('pre-flight: keywords comparisons, sort, geometric, gaps, shell, constant (deterministic: no model (SVC_MODEL is not set))');
    expect(echoed().p).not.toContain('## Method');
    writeFileSync(join(ckpt, 'science_data.json'), JSON.stringify(scienceData()));
    r = await runCheckpointPipeline(ckpt, root, { LOOP_CALLS: calls });
    expect(r.failure).toBeNull();
    expect(echoed().p).toContain('## Experiment\nSort integers.\n\n## Method\nInsertion sort against Shell sort.');
  });

  test('verified_context.json holds the results memory can verify against disk', async () => {
    const data = tempDir();
    const mem = startMemoryServer({ port: 0, host: '127.0.0.1', dataDir: data });
    try {
      const env = { MEMBACKEND_BASE_URL: mem.url, HOME: root };
      const workDir = join(root, 'workspace', 'experiments', RUN_ID, 'node_aaaa0002');
      const memory = NodeMemory.forCheckpoint(ckpt, env);
      const refs = await recordArtifacts([{ path: 'results.json' }], workDir);
      await memory.add([
        { nodeId: 'node_aaaa0002', kind: 'experiment_result', text: '50 comparisons', metadata: { artifact_refs: refs, work_dir: workDir } },
        { nodeId: 'node_aaaa0001', kind: 'experiment_result', text: 'no files', metadata: {} },
      ]);
      echoStage('      x: "1"');
      const r = await runCheckpointPipeline(ckpt, root, { LOOP_CALLS: calls, ...env });
      const context = json('verified_context.json');
      expect(context.verified.map((c: { text: string }) => c.text)).toEqual(['50 comparisons']);
      expect(context.unverified.map((c: { reasons: string[] }) => c.reasons)).toEqual([['no artifacts recorded']]);
      expect(context.note).toBeNull();
      expect(r.log[0]).toEndWith('verified_context.json: 1 verified result');
    } finally {
      await mem.stop();
      removeDir(data);
    }
  });

  test('the sanity gate: work without real data stops the pipeline with one line and bfts_no_real_data.json; SVC_FORCE_PAPER=1 passes it', async () => {
    const bare = writeScienceCheckpoint(tempDir(), [
      { id: ROOT_ID, parent_id: null, label: 'draft', status: 'success', has_real_data: false, artifacts: [{ type: 'code', tool: 'write_code', content: 'x', step: 1 }] },
      { id: 'node_bbbb0001', parent_id: ROOT_ID, label: 'improve', status: 'failed', has_real_data: false, metrics: { _scientific_score: 0 } },
    ]);
    ckpt = bare;
    echoStage('      x: "1"');
    const r = await runCheckpointPipeline(bare, root, { LOOP_CALLS: calls });
    expect(r.failure).toBe('no node of the search has real data with measured metrics (2 of 2 left artifacts or metrics); nothing for a paper to report; see bfts_no_real_data.json (SVC_FORCE_PAPER=1 runs the pipeline anyway)');
    expect(r.stages).toEqual([]);
    expect(existsSync(calls)).toBe(false);
    const found = JSON.parse(readFileSync(join(bare, 'bfts_no_real_data.json'), 'utf8'));
    expect(found.nodes.map((n: { id: string; artifacts: number; metrics: string[] }) => [n.id, n.artifacts, n.metrics])).toEqual([
      [ROOT_ID, 1, []],
      ['node_bbbb0001', 0, ['_scientific_score']],
    ]);
    expect(found.override).toBe('SVC_FORCE_PAPER=1');

    const forced = await runCheckpointPipeline(bare, root, { LOOP_CALLS: calls, SVC_FORCE_PAPER: '1' });
    expect(forced.failure).toBeNull();
    expect(forced.log).toContain('pre-flight: no node of the search has real data with measured metrics (2 of 2 left artifacts or metrics); nothing for a paper to report; SVC_FORCE_PAPER=1: the pipeline runs anyway');
    expect(forced.stages.map((s) => s.status)).toEqual(['done']);
    removeDir(join(bare, '..', '..', '..'));
  });

  test('a tree with real data passes the gate and removes a stale finding; so does one with no work at all', async () => {
    writeFileSync(join(ckpt, 'bfts_no_real_data.json'), '{}');
    echoStage('      x: "1"');
    expect((await runCheckpointPipeline(ckpt, root, { LOOP_CALLS: calls })).failure).toBeNull();
    expect(existsSync(join(ckpt, 'bfts_no_real_data.json'))).toBe(false);
    writeFileSync(join(ckpt, 'tree.json'), '{"nodes": []}');
    expect((await runCheckpointPipeline(ckpt, root, { LOOP_CALLS: calls })).failure).toBeNull();
    expect(json('nodes_tree.json').nodes).toEqual([]);
  });

  test('bad input: a damaged tree.json stops the pre-flight with one line, leaving nodes_tree.json as it was', async () => {
    const before = readFileSync(join(ckpt, 'nodes_tree.json'), 'utf8');
    writeFileSync(join(ckpt, 'tree.json'), '{"nodes": [');
    echoStage('      x: "1"');
    await expect(runCheckpointPipeline(ckpt, root, { LOOP_CALLS: calls })).rejects.toThrow(`${join(ckpt, 'tree.json')} is not JSON`);
    expect(readFileSync(join(ckpt, 'nodes_tree.json'), 'utf8')).toBe(before);
  });
});

function scienceData() {
  return {
    schema_version: 1,
    primary_metric: { name: 'comparisons', higher_is_better: false, unit: null },
    experiment_context: { goal: 'Sort integers.', idea: null, method_summary: 'Insertion sort against Shell sort.' },
    configurations: [],
    best: null,
    baseline: null,
    values: {},
    notes: [],
  };
}
