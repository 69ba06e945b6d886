import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { editCheckpointWorkflow } from '../../../../src/core/config/workflow-edit.ts';
import { applyFlow, type FlowUpdate, workflowFlow } from '../../../../src/core/config/workflow-flow.ts';
import { bundledWorkflow, parseWorkflow } from '../../../../src/core/config/workflow.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

const copy = () => join(dir, 'workflow.yaml');
const saveFlow = (update: FlowUpdate) => editCheckpointWorkflow(dir, {}, (doc, wf) => applyFlow(doc, wf, update));
const current = () => parseWorkflow(readFileSync(copy(), 'utf8'), copy(), {});

describe('the workflow as a graph', () => {
  const flow = workflowFlow(bundledWorkflow());

  test('one node per stage entry with a unique id, even where a stage name repeats', () => {
    const wf = bundledWorkflow();
    expect(flow.nodes).toHaveLength(wf.bfts_pipeline.length + wf.pipeline.length);
    expect(new Set(flow.nodes.map((n) => n.id)).size).toBe(flow.nodes.length);
    const publish = flow.nodes.filter((n) => n.stage === 'ear_publish');
    expect(publish.map((n) => [n.id, n.list, n.enabled])).toEqual([
      ['ear_publish', 'pipeline', false],
      ['ear_publish#2', 'pipeline', true],
    ]);
    expect(flow.nodes[0]).toEqual({ id: 'generate_idea', stage: 'generate_idea', group: 'bfts', list: 'bfts_pipeline', skill: 'idea-skill', tool: 'generate_ideas', phase: 'bfts', enabled: true });
  });

  test('edges from depends_on (dependency to dependent) and loop_back_to', () => {
    expect(flow.edges).toContainEqual({ from: 'generate_idea', to: 'select_and_run', kind: 'depends_on' });
    expect(flow.edges).toContainEqual({ from: 'frontier_expand', to: 'select_and_run', kind: 'loop_back_to' });
    // a repeated name resolves to its enabled entry
    expect(flow.edges).toContainEqual({ from: 'ear_publish#2', to: 'ors_seed_sandbox', kind: 'depends_on' });
    expect(flow.edges.filter((e) => e.to === 'write_paper').map((e) => e.from)).toEqual(['search_related_work', 'generate_figures', 'generate_ear']);
  });
});

describe('saving the graph', () => {
  const flow = workflowFlow(bundledWorkflow());

  test('sending the graph back unchanged keeps the workflow as it was', () => {
    saveFlow({ nodes: flow.nodes, edges: flow.edges });
    expect(current()).toEqual(bundledWorkflow());
  });

  test('depends_on is rebuilt from the edges, enabled flags applied, loops follow their edges', () => {
    const edges = flow.edges.filter((e) => !(e.to === 'write_paper' && e.from === 'generate_figures') && e.kind !== 'loop_back_to');
    edges.push({ from: 'search_related_work', to: 'review_paper', kind: 'depends_on' });
    saveFlow({ nodes: [{ id: 'generate_figures', enabled: false }, { id: 'ear_curate' }], edges });
    const wf = current();
    const stage = (name: string) => wf.pipeline.find((s) => s.stage === name);
    expect(stage('write_paper')?.depends_on).toEqual(['search_related_work', 'generate_ear']);
    expect(stage('review_paper')?.depends_on).toEqual(['write_paper', 'search_related_work']);
    expect(stage('generate_figures')?.enabled).toBe(false);
    expect(stage('ear_curate')?.enabled).toBe(true);
    expect(wf.bfts_pipeline.find((s) => s.stage === 'frontier_expand')?.loop_back_to).toBeUndefined();
  });

  test('a file that leaves the stage lists to the default gets them written in', () => {
    writeFileSync(copy(), '# my run\nllm: {model: m}\n');
    saveFlow({ nodes: [{ id: 'ors_grade', enabled: false }], edges: flow.edges });
    const text = readFileSync(copy(), 'utf8');
    expect(text.startsWith('# my run\nllm: { model: m }\n')).toBe(true);
    expect(current().pipeline.find((s) => s.stage === 'ors_grade')?.enabled).toBe(false);
    expect(current().llm.model).toBe('m');
  });

  const refused: [string, FlowUpdate, string][] = [
    ['an unknown node', { nodes: [{ id: 'nope', enabled: true }], edges: [] }, "unknown node 'nope'"],
    ['an edge to an unknown node', { nodes: [], edges: [{ from: 'nope', to: 'write_paper', kind: 'depends_on' }] }, "unknown node 'nope'"],
    ['an edge across the lists', { nodes: [], edges: [{ from: 'evaluate', to: 'write_paper', kind: 'depends_on' }] }, 'joins the two stage lists'],
    [
      'a cycle',
      {
        nodes: [],
        edges: [
          { from: 'write_paper', to: 'review_paper', kind: 'depends_on' },
          { from: 'review_paper', to: 'write_paper', kind: 'depends_on' },
        ],
      },
      'depends_on edges form a cycle',
    ],
    ['a dependency below its stage', { nodes: [], edges: [{ from: 'ors_grade', to: 'write_paper', kind: 'depends_on' }] }, "'ors_grade' is not above 'write_paper'"],
    ['two enabled entries of one stage', { nodes: [{ id: 'ear_publish', enabled: true }], edges: flow.edges }, "'ear_publish' is already an enabled stage above"],
    [
      'two loops from one stage',
      {
        nodes: [],
        edges: [
          { from: 'frontier_expand', to: 'select_and_run', kind: 'loop_back_to' },
          { from: 'frontier_expand', to: 'evaluate', kind: 'loop_back_to' },
        ],
      },
      'more than one loop_back_to edge',
    ],
  ];
  test.each(refused)('%s is refused and nothing is written', (_what, update, message) => {
    expect(() => saveFlow(update)).toThrow(message);
    expect(existsSync(copy())).toBe(false);
    writeFileSync(copy(), 'llm: {model: m}\n');
    expect(() => saveFlow(update)).toThrow(message);
    expect(readFileSync(copy(), 'utf8')).toBe('llm: {model: m}\n');
  });
});
