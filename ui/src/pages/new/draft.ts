import { useEffect, useState } from 'react';

/** Everything the researcher has entered in the wizard; numbers stay text until launch, so the API judges them. */
export type Draft = {
  goal: string;
  profile: string;
  max_nodes: string;
  max_depth: string;
  workers: string;
  provider: string;
  model: string;
  executor: string;
  partition: string;
  container_image: string;
  /** the multi-agent idea engine, and its discussion rounds and team size (empty: its defaults) */
  ideas_by_teams: boolean;
  ideas_rounds: string;
  ideas_team_size: string;
  /** the id the provided files are uploaded under until the launch takes them */
  staging: string;
  files: { name: string; size: number }[];
};

export const emptyDraft = (): Draft => ({
  goal: '',
  profile: '',
  max_nodes: '',
  max_depth: '',
  workers: '',
  provider: '',
  model: '',
  executor: '',
  partition: '',
  container_image: '',
  ideas_by_teams: false,
  ideas_rounds: '',
  ideas_team_size: '',
  staging: crypto.randomUUID(),
  files: [],
});

const KEY = 'svc-new-experiment';

/** Fields to set, or what to set worked out from the draft as it is then (after an await, the one rendered may be stale). */
export type DraftChange = Partial<Draft> | ((d: Draft) => Partial<Draft>);

/**
 * The draft, kept for the tab's session: leaving the wizard for another page and coming back
 * loses nothing. `reset` starts a new one (after a launch).
 */
export function useDraft(): [Draft, (change: DraftChange) => void, () => void] {
  const [draft, setDraft] = useState<Draft>(() => {
    try {
      return { ...emptyDraft(), ...(JSON.parse(sessionStorage.getItem(KEY) ?? '{}') as Partial<Draft>) };
    } catch {
      return emptyDraft();
    }
  });
  useEffect(() => sessionStorage.setItem(KEY, JSON.stringify(draft)), [draft]);
  const update = (change: DraftChange) => setDraft((d) => ({ ...d, ...(typeof change === 'function' ? change(d) : change) }));
  const reset = () => {
    const fresh = emptyDraft();
    // written now: a reset before leaving the page is never rendered, so the effect would not run
    sessionStorage.setItem(KEY, JSON.stringify(fresh));
    setDraft(fresh);
  };
  return [draft, update, reset];
}

/** A whole number as typed; anything else is sent as typed, for the API to name. */
function count(text: string): number | string {
  const n = Number(text.trim());
  return Number.isInteger(n) && text.trim() !== '' ? n : text;
}

/**
 * The POST /api/launch body: only what the researcher chose; a field left empty is left out, so
 * the configuration (workflow, profile, environment) decides it.
 */
export function launchBody(d: Draft): Record<string, unknown> {
  const body: Record<string, unknown> = { experiment_md: d.goal };
  const text = { profile: d.profile, provider: d.provider, model: d.model, executor: d.executor, container_image: d.container_image.trim() };
  for (const [k, v] of Object.entries(text)) if (v !== '') body[k] = v;
  for (const k of ['max_nodes', 'max_depth', 'workers'] as const) if (d[k].trim() !== '') body[k] = count(d[k]);
  if (d.executor === 'slurm' && d.partition !== '') body.partition = d.partition;
  if (d.ideas_by_teams) {
    body.vir_sci_real = true;
    if (d.ideas_rounds.trim() !== '') body.vir_sci_k = count(d.ideas_rounds);
    if (d.ideas_team_size.trim() !== '') body.vir_sci_team_size = count(d.ideas_team_size);
  }
  if (d.files.length > 0) body.staging = d.staging;
  return body;
}
