import { ErrorMessage, Loading } from '../../components/states.tsx';
import { useApi } from '../../use-api.ts';
import type { Draft } from './draft.ts';
import { Field } from './Field.tsx';
import type { Profiles } from './types.ts';

type Props = { draft: Draft; onChange: (change: Partial<Draft>) => void };

/** The profile's value of a scope field (profiles name workers `parallel`). */
export function profileValue(profiles: Profiles | undefined, profile: string, key: 'max_nodes' | 'max_depth' | 'workers'): string | null {
  const values = profiles?.profiles.find((p) => p.name === profile)?.values;
  const v = values?.[key === 'workers' ? 'parallel' : key];
  return v === undefined ? null : String(v);
}

const FIELDS = [
  { key: 'max_nodes', label: 'Max nodes', help: 'experiments the search may try in all' },
  { key: 'max_depth', label: 'Max depth', help: 'how many improvements may build on each other' },
  { key: 'workers', label: 'Workers', help: 'experiments run at once' },
] as const;

/** How far the search goes: a profile (a set of defaults) and the node, depth and worker caps. */
export function ScopeStep({ draft, onChange }: Props) {
  const profiles = useApi<Profiles>('/api/profiles');
  const data = profiles.data;
  if (profiles.error) return <ErrorMessage message={profiles.error} retry={profiles.reload} />;
  if (!data) return <Loading what="the profiles" />;
  const chosen = draft.profile || data.selected || '';
  return (
    <div className="new-form">
      <Field label="Profile">
        {(control) => (
          <select {...control} value={draft.profile} onChange={(e) => onChange({ profile: e.target.value })}>
            <option value="">{data.selected ? `as saved in the settings (${data.selected})` : 'none: the workflow decides'}</option>
            {data.profiles.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}: {Object.entries(p.values).map(([k, v]) => `${k} ${v}`).join(', ')}
              </option>
            ))}
          </select>
        )}
      </Field>
      {FIELDS.map((f) => {
        const fromProfile = chosen ? profileValue(data, chosen, f.key) : null;
        return (
          <Field key={f.key} label={f.label} help={`${f.help}; empty: ${fromProfile ? `the profile's ${fromProfile}` : 'as configured'}`}>
            {(control) => (
              <input
                {...control}
                type="number"
                min={1}
                step={1}
                inputMode="numeric"
                value={draft[f.key]}
                placeholder={fromProfile ? `${fromProfile} (profile ${chosen})` : 'configuration default'}
                onChange={(e) => onChange({ [f.key]: e.target.value })}
              />
            )}
          </Field>
        );
      })}
      <p className="meta">The smallest scope (1 node, depth 1, 1 worker) is a quick check that the goal and the model work.</p>
      <IdeaEngine draft={draft} onChange={onChange} />
    </div>
  );
}

const ENGINE_FIELDS = [
  { key: 'ideas_rounds', label: 'Discussion rounds', help: "rounds each team discusses; empty: the engine's default" },
  { key: 'ideas_team_size', label: 'Team size', help: "authors in a team; empty: the engine's default" },
] as const;

/** Where the ideas come from: the discussion loop, or teams of authors built from the literature (the multi-agent engine). */
function IdeaEngine({ draft, onChange }: Props) {
  return (
    <fieldset className="new-ideas">
      <legend>Ideas</legend>
      <label className="new-choice">
        <input type="checkbox" checked={draft.ideas_by_teams} onChange={(e) => onChange({ ideas_by_teams: e.target.checked })} /> Teams of authors from the literature discuss them
        (the multi-agent engine)
      </label>
      {draft.ideas_by_teams &&
        ENGINE_FIELDS.map((f) => (
          <Field key={f.key} label={f.label} help={f.help}>
            {(control) => <input {...control} type="number" min={1} step={1} inputMode="numeric" value={draft[f.key]} onChange={(e) => onChange({ [f.key]: e.target.value })} />}
          </Field>
        ))}
      <p className="meta">
        {draft.ideas_by_teams
          ? 'Its authors come from the papers the survey finds, ranked by an embedding model; without one, or with no papers, the run says why and the discussion loop makes the ideas.'
          : 'Off: as configured, which is the discussion loop (agents with different viewpoints, then a synthesis) unless SVC_IDEA_MA_REAL is on.'}
      </p>
    </fieldset>
  );
}
