import { type Document, isMap, isSeq, type YAMLMap, type YAMLSeq } from 'yaml';
import type { Phase, Stage, Workflow } from '../../schema/workflow.ts';
import { InputError } from '../errors.ts';
import { ownKey } from './workflow-edit.ts';
import { dependsOn } from './workflow.ts';

export const STAGE_LISTS = ['bfts_pipeline', 'pipeline'] as const;
export type StageList = (typeof STAGE_LISTS)[number];
export type EdgeKind = 'depends_on' | 'loop_back_to';

/** `group`: bfts for the search's stages (bfts_pipeline), pipeline for those after it. */
export type FlowNode = { id: string; stage: string; group: 'bfts' | 'pipeline'; list: StageList; skill: string; tool: string; phase: Phase | Phase[] | null; enabled: boolean };
/** depends_on: from the stage depended on to the stage that waits for it; loop_back_to: from the looping stage to its target. */
export type FlowEdge = { from: string; to: string; kind: EdgeKind };
export type Flow = { nodes: FlowNode[]; edges: FlowEdge[] };
export type FlowUpdate = { nodes: { id: string; enabled?: boolean }[]; edges: FlowEdge[] };

/**
 * Node ids of both lists: the stage name (`generate_idea`, `write_paper`, as the ARI web UI has
 * them), and `<stage>#<n>` for the n-th entry of a name that repeats (a disabled variant of a
 * stage kept next to the enabled one).
 */
function nodeIds(wf: Workflow): Record<StageList, string[]> {
  const seen = new Map<string, number>();
  const ids = (stages: Stage[]) =>
    stages.map((s) => {
      const n = (seen.get(s.stage) ?? 0) + 1;
      seen.set(s.stage, n);
      return n === 1 ? s.stage : `${s.stage}#${n}`;
    });
  return { bfts_pipeline: ids(wf.bfts_pipeline), pipeline: ids(wf.pipeline) };
}

const GROUP: Readonly<Record<StageList, FlowNode['group']>> = { bfts_pipeline: 'bfts', pipeline: 'pipeline' };

/**
 * The entry a stage name refers to from position `from`: among entries of that name, an enabled
 * one before a disabled one, and the nearest above before anything below.
 */
function target(stages: Stage[], name: string, from: number): number | undefined {
  const rank = (i: number) => (stages[i]?.enabled === false ? 2 : 0) + (i < from ? 0 : 1);
  const candidates = stages.flatMap((s, i) => (s.stage === name && i !== from ? [i] : []));
  return candidates.sort((a, b) => rank(a) - rank(b) || Math.abs(from - a) - Math.abs(from - b))[0];
}

/** Both stage lists as one graph, with edges from depends_on and loop_back_to. */
export function workflowFlow(wf: Workflow): Flow {
  const nodes: FlowNode[] = [];
  const edges: FlowEdge[] = [];
  const all = nodeIds(wf);
  for (const list of STAGE_LISTS) {
    const stages = wf[list];
    const ids = all[list];
    stages.forEach((s, i) => {
      const id = ids[i] as string;
      nodes.push({ id, stage: s.stage, group: GROUP[list], list, skill: s.skill ?? '', tool: s.tool ?? '', phase: s.phase ?? null, enabled: s.enabled !== false });
      for (const dep of dependsOn(s)) {
        const j = target(stages, dep, i);
        if (j !== undefined) edges.push({ from: ids[j] as string, to: id, kind: 'depends_on' });
      }
      const j = s.loop_back_to ? target(stages, s.loop_back_to, i) : undefined;
      if (j !== undefined) edges.push({ from: id, to: ids[j] as string, kind: 'loop_back_to' });
    });
  }
  return { nodes, edges };
}

type Place = { list: StageList; index: number; stage: string };

/**
 * Apply a saved DAG to the workflow document: each stage's depends_on and loop_back_to are rebuilt
 * from the edges, and `enabled` is set where a node gives it. Unknown nodes, edges across the two
 * lists and cycles are refused before anything changes.
 */
export function applyFlow(doc: Document, wf: Workflow, update: FlowUpdate): void {
  const places = new Map<string, Place>();
  const all = nodeIds(wf);
  for (const list of STAGE_LISTS) all[list].forEach((id, index) => places.set(id, { list, index, stage: wf[list][index]?.stage ?? '' }));
  const place = (id: string): Place => {
    const p = places.get(id);
    if (!p) throw new InputError(`unknown node '${id.slice(0, 120)}'`, 'use the ids of GET /api/workflow/flow');
    return p;
  };
  const deps = new Map<string, string[]>();
  const loops = new Map<string, string>();
  for (const e of update.edges) {
    const from = place(e.from);
    const to = place(e.to);
    if (from.list !== to.list) throw new InputError(`edge ${e.from} -> ${e.to} joins the two stage lists; edges stay within one`);
    if (e.kind === 'depends_on') deps.set(e.to, [...(deps.get(e.to) ?? []), e.from]);
    else if (loops.has(e.from)) throw new InputError(`${e.from} has more than one loop_back_to edge`);
    else loops.set(e.from, e.to);
  }
  refuseCycle(deps);
  const enabled = new Map<string, boolean | undefined>();
  for (const n of update.nodes) {
    place(n.id);
    enabled.set(n.id, n.enabled);
  }
  for (const list of STAGE_LISTS) ownKey(doc, list);
  for (const [id, p] of places) {
    const entry = stageEntry(doc, p);
    const names = (deps.get(id) ?? []).map((d) => place(d).stage);
    setDependsOn(doc, entry, names);
    const loop = loops.get(id);
    if (loop) entry.set('loop_back_to', place(loop).stage);
    else entry.delete('loop_back_to');
    const on = enabled.get(id);
    if (on !== undefined && on !== (entry.get('enabled') !== false)) entry.set('enabled', on);
  }
}

function stageEntry(doc: Document, p: Place): YAMLMap {
  const seq = doc.get(p.list, true);
  const entry = isSeq(seq) ? (seq as YAMLSeq).items[p.index] : undefined;
  if (!isMap(entry)) throw new InputError(`${p.list}[${p.index}] is not a stage entry`);
  return entry as YAMLMap;
}

/** Keep the order of names already listed, add new ones after; leave the entry alone when nothing changes. */
function setDependsOn(doc: Document, entry: YAMLMap, names: string[]): void {
  const raw = entry.get('depends_on', true);
  const before: string[] = raw === undefined ? [] : [(raw as { toJSON(): unknown }).toJSON()].flat().map(String);
  const wanted = new Set(names);
  const next = [...before.filter((n) => wanted.has(n)), ...names.filter((n) => !before.includes(n))].filter((n, i, all) => all.indexOf(n) === i);
  if (next.length === before.length && next.every((n, i) => n === before[i])) return;
  entry.set('depends_on', doc.createNode(next, { flow: true }));
}

function refuseCycle(deps: Map<string, string[]>): void {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string, path: string[]): void => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'open') throw new InputError(`depends_on edges form a cycle: ${[...path.slice(path.indexOf(id)), id].join(' -> ')}`);
    state.set(id, 'open');
    for (const d of deps.get(id) ?? []) visit(d, [...path, id]);
    state.set(id, 'done');
  };
  for (const id of deps.keys()) visit(id, []);
}

/**
 * Replace the post-search `pipeline` list with `stages` as given, every field of each kept (the
 * ARI web UI posts the list it edited); the rest of the document stays as it is. The result is
 * checked as a run checks it before it is written.
 */
export function replacePipeline(doc: Document, stages: unknown[]): void {
  stages.forEach((s, i) => {
    if (!s || typeof s !== 'object' || Array.isArray(s) || typeof (s as { stage?: unknown }).stage !== 'string') throw new InputError(`pipeline[${i}] is not a stage entry with a stage name`);
  });
  doc.set('pipeline', doc.createNode(stages));
}
