import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { ScienceData } from '../../../src/schema/science-data.ts';
import { nodesToScienceData } from '../../../src/skills/transform/science-data.ts';
import { type ModelServer, startModelServer } from '../../support/model-server.ts';
import { ROOT_ID, SORTING_NODES, writeScienceCheckpoint } from '../../support/science-checkpoint.ts';
import { type OpenAIChatRequest, researcherReply } from '../../support/scripted-researcher.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { callTool } from '../skills/coding/tool-call.ts';

let root: string;
let ckpt: string;
let server: ModelServer;
beforeEach(() => {
  root = tempDir();
  ckpt = writeScienceCheckpoint(root);
  server = startModelServer([], { respond: (body) => researcherReply(body as OpenAIChatRequest) });
});
afterEach(() => {
  server.stop();
  removeDir(root);
});

const env = (more: Record<string, string> = {}) => ({
  PATH: process.env.PATH,
  HOME: root,
  SVC_ROOT: root,
  SVC_CHECKPOINT_DIR: ckpt,
  SVC_BACKEND: 'openai-compatible',
  LLM_API_BASE: `${server.url}/v1`,
  SVC_MODEL: 'scripted-researcher',
  SVC_LLM_MAX_RETRIES: '0',
  SVC_LLM_RECORD: 'off',
  ...more,
});
const nodesFile = () => join(ckpt, 'nodes_tree.json');
const build = (args: Record<string, unknown> = {}, more: Record<string, string> = {}) => callTool(nodesToScienceData, { nodes_json_path: nodesFile(), ...args }, env(more));
const written = (): ScienceData => JSON.parse(readFileSync(join(ckpt, 'science_data.json'), 'utf8'));

describe('nodes_to_science_data', () => {
  test('every node with real data is a configuration with the numbers of its results.json; the rest is left out with a note', async () => {
    const summary = await build();
    const data = written();
    expect(Value.Check(ScienceData, data)).toBe(true);
    expect(data.configurations.map((c) => c.node_id)).toEqual([ROOT_ID, 'node_aaaa0001', 'node_aaaa0002']);
    const [base, trials, best] = data.configurations;
    expect(base).toMatchObject({ label: 'draft', name: 'Insertion sort', depth: 0, parent_id: null, params: { algorithm: 'insertion', seed: 42 }, metrics: { comparisons: 1000, moves: 900 } });
    // a list of trials counts as its mean; a setting that is no scalar is kept as its JSON
    expect(trials?.metrics.comparisons).toBe(100);
    expect(best?.params.gaps).toBe('[1,4,10]');
    expect(best?.results_path).toBe(join(root, 'workspace', 'experiments', '20260301120000_sorting', 'node_aaaa0002', 'results.json'));
    expect(data.primary_metric).toEqual({ name: 'comparisons', higher_is_better: false, unit: null });
    expect(data.best).toEqual({ node_id: 'node_aaaa0002', value: 50 });
    expect(data.baseline).toEqual({ node_id: ROOT_ID, value: 1000 });
    const v = (k: string) => data.values[k]?.value;
    expect([v('best.comparisons'), v('baseline.comparisons'), v('best.moves'), v(`${ROOT_ID}.moves`), v('node_aaaa0001.comparisons')]).toEqual([50, 1000, 40, 900, 100]);
    expect(v('improvement.comparisons.ratio')).toBe(20);
    expect(v('improvement.comparisons.percent')).toBe(-95);
    expect(v('count.configurations')).toBe(3);
    expect(data.values['improvement.comparisons.ratio']).toMatchObject({ metric: 'comparisons', node_id: null });
    expect(data.values['best.comparisons']).toMatchObject({ node_id: 'node_aaaa0002', what: 'comparisons of the best configuration (Shell sort, gap ratio 2.4)' });
    expect(data.experiment_context.idea).toBe('Geometric gaps: Shell sort with a constant gap ratio.');
    expect(data.experiment_context.goal).toStartWith('# Fewer comparisons');
    expect(data.notes ?? []).toContain('left out, no real data: node_aaaa0003');
    expect((data.notes ?? []).find((n) => n.startsWith('node_aaaa0004 left out: '))).toContain('results.json: is not valid JSON');
    expect(data.notes ?? []).toContain('node_aaaa0005 left out: no results.json in experiments/20260301120000_sorting/node_aaaa0005');
    expect(data.notes ?? []).toContain("configuration names and method summary are the model's");
    expect(summary).toMatchObject({ science_data_path: join(ckpt, 'science_data.json'), primary_metric: 'comparisons', configurations: 3, best: { node_id: 'node_aaaa0002', name: 'Shell sort, gap ratio 2.4', value: 50 } });
    // the model was shown the settings, never a measurement
    const asked = JSON.stringify(server.requests.map((r) => r.body));
    expect(asked).toContain('transform/configurations');
    expect(asked).not.toContain('1000');
    // nor a node id, which differs between runs of the same search
    expect(asked).not.toContain('node_aaaa');
  });

  test('no model answer: deterministic names from the settings that differ, and a note', async () => {
    server.push({ status: 500 });
    await build();
    const data = written();
    expect(data.configurations.map((c) => c.name)).toEqual(['draft (algorithm insertion)', 'improve (algorithm shell, gap_ratio 2.2)', 'improve (algorithm shell, gap_ratio 2.4, gaps [1,4,10])']);
    expect(data.experiment_context.method_summary).toContain('ranked by comparisons (lower is better), against the baseline draft (algorithm insertion)');
    expect((data.notes ?? []).some((n) => n.startsWith('names and method summary are deterministic: the model gave none ('))).toBe(true);
    expect(data.values['best.comparisons']?.value).toBe(50);
  });

  test("a model's name or summary that quotes a number no setting gives is replaced by the deterministic one", async () => {
    // in the prompt's order: by depth, label and settings
    const names = ['Insertion sort', 'Shell sort, 100 comparisons', 'Shell sort, gap ratio 2.4'];
    server.push({ text: JSON.stringify({ names, method_summary: 'Shell sort needs 20 times fewer comparisons.' }) });
    await build();
    const data = written();
    expect(data.configurations.map((c) => c.name)).toEqual(['Insertion sort', 'improve (algorithm shell, gap_ratio 2.2)', 'Shell sort, gap ratio 2.4']);
    expect(data.experiment_context.method_summary).toStartWith('The search measured these configurations: ');
    expect(data.notes ?? []).toContain('node_aaaa0001: the model\'s name "Shell sort, 100 comparisons" quotes 100, which its settings do not hold; named deterministically');
    expect((data.notes ?? []).some((n) => n.includes('its method summary quotes 20'))).toBe(true);
  });

  test('a metric and direction given win; a node labelled baseline is the baseline', async () => {
    const nodes = SORTING_NODES.map((n) => (n.id === 'node_aaaa0001' ? { ...n, raw_label: 'baseline' } : n));
    ckpt = writeScienceCheckpoint(tempDir(), nodes);
    await build({ primary_metric: 'moves', higher_is_better: true });
    const data = written();
    expect(data.primary_metric).toMatchObject({ name: 'moves', higher_is_better: true });
    expect(data.best).toEqual({ node_id: ROOT_ID, value: 900 });
    expect(data.baseline).toEqual({ node_id: 'node_aaaa0001', value: 80 });
    expect(data.configurations[1]?.label).toBe('baseline');
    expect(data.values['improvement.moves.ratio']?.value).toBe(11.25);
    removeDir(join(ckpt, '..', '..', '..'));
  });

  test('without a metric contract the metric comes from evaluation_criteria.json, then idea.json', async () => {
    rmSync(join(ckpt, 'metric_contract.json'));
    writeFileSync(join(ckpt, 'evaluation_criteria.json'), JSON.stringify({ primary_metric: 'moves', higher_is_better: false }));
    await build();
    expect(written().best).toEqual({ node_id: 'node_aaaa0002', value: 40 });
    rmSync(join(ckpt, 'evaluation_criteria.json'));
    await build();
    expect(written().primary_metric.name).toBe('comparisons');
  });

  test('bad inputs: one clear error, and no science_data.json', async () => {
    const fails = async (args: Record<string, unknown>, message: string) => {
      await expect(build(args)).rejects.toThrow(message);
      expect(existsSync(join(ckpt, 'science_data.json'))).toBe(false);
    };
    await fails({ nodes_json_path: join(ckpt, 'none.json') }, `nodes_json_path '${join(ckpt, 'none.json')}' does not exist`);
    writeFileSync(join(ckpt, 'empty.json'), '');
    await fails({ nodes_json_path: join(ckpt, 'empty.json') }, 'is empty');
    writeFileSync(join(ckpt, 'torn.json'), '{"nodes": [');
    await fails({ nodes_json_path: join(ckpt, 'torn.json') }, 'is not valid JSON');
    writeFileSync(join(ckpt, 'flat.json'), '{"run_id": "x"}');
    await fails({ nodes_json_path: join(ckpt, 'flat.json') }, 'has no nodes list');
    writeFileSync(join(ckpt, 'badid.json'), JSON.stringify({ nodes: [{ id: '../../etc' }] }));
    await fails({ nodes_json_path: join(ckpt, 'badid.json') }, 'node 0 has no valid id');
    writeFileSync(join(ckpt, 'none-real.json'), JSON.stringify({ nodes: SORTING_NODES.filter((n) => !n.has_real_data || !n.results || n.results.endsWith('7')).map((n) => ({ ...n })) }));
    await fails({ nodes_json_path: join(ckpt, 'none-real.json') }, 'has real data with a readable results.json: left out, no real data: node_aaaa0003; node_aaaa0004 left out: ');
    writeFileSync(join(ckpt, 'no-nodes.json'), '{"nodes": []}');
    await fails({ nodes_json_path: join(ckpt, 'no-nodes.json') }, 'has real data with a readable results.json: it lists no nodes');
    rmSync(join(ckpt, 'metric_contract.json'));
    writeFileSync(join(ckpt, 'idea.json'), '{"ideas": []}');
    await fails({}, `no primary metric: none given, and ${ckpt} has no metric_contract.json, evaluation_criteria.json or idea.json naming one`);
  });
});
