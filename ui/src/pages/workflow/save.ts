import { getJson, postJson } from '../../api.ts';
import type { DefaultWorkflow, Flow, FlowEdge, WorkflowView } from './types.ts';

/** Changes made on the page and not saved yet. */
export type Draft = {
  stages: Map<string, boolean>;
  skills: Map<string, boolean>;
  /** per skill, the whole set of its tools to switch off */
  tools: Map<string, Set<string>>;
};

export const emptyDraft = (): Draft => ({ stages: new Map(), skills: new Map(), tools: new Map() });

export const draftSize = (d: Draft): number => d.stages.size + d.skills.size + d.tools.size;

/**
 * Posts each kind of change to its endpoint, stages first; stops at the first refusal, whose
 * message is thrown. Returns what the server says it saved, in words.
 */
export async function saveDraft(draft: Draft, edges: FlowEdge[]): Promise<string> {
  let path = '';
  if (draft.stages.size > 0) {
    const nodes = [...draft.stages].map(([id, enabled]) => ({ id, enabled }));
    await postJson<Flow>('/api/workflow/flow', { nodes, edges });
  }
  for (const [name, enabled] of draft.skills) path = (await postJson<WorkflowView>('/api/workflow/skills', { name, enabled })).path;
  for (const [skill, off] of draft.tools) path = (await postJson<WorkflowView>('/api/workflow/disabled-tools', { skill, tools: [...off].sort() })).path;
  const parts = [count(draft.stages.size, 'stage'), count(draft.skills.size, 'skill'), count(draft.tools.size, 'tool list')].filter(Boolean);
  return `Saved ${parts.join(', ')}${path ? ` to ${path}` : ''}.`;
}

/** Replaces the checkpoint's workflow with the bundled one; returns where it was written. */
export async function resetToDefault(): Promise<string> {
  const bundled = await getJson<DefaultWorkflow>('/api/workflow/default');
  const saved = await postJson<WorkflowView>('/api/workflow', { yaml: bundled.yaml });
  return `Reset to the bundled default: ${saved.path}.`;
}

function count(n: number, what: string): string {
  return n === 0 ? '' : `${n} ${what}${n === 1 ? '' : 's'}`;
}
