import { useApi } from '../../use-api.ts';
import type { Draft } from './draft.ts';
import { profileValue } from './ScopeStep.tsx';
import type { Profiles, RunSettings } from './types.ts';

type Props = { draft: Draft };

/**
 * What the launch will start, and what it may cost. svc has no estimator of a search run's cost or
 * time (the bench has one for its jobs only), so the preview gives the limits the launch applies
 * and says so, rather than a made-up figure.
 */
export function ReviewStep({ draft }: Props) {
  const profiles = useApi<Profiles>('/api/profiles');
  const settings = useApi<RunSettings>('/api/settings');
  const profile = draft.profile || profiles.data?.selected || '';
  const cap = (key: 'max_nodes' | 'max_depth' | 'workers') => {
    if (draft[key].trim() !== '') return draft[key];
    const v = profile ? profileValue(profiles.data, profile, key) : null;
    return v ? `${v} (profile ${profile})` : 'as configured';
  };
  const title = /^#[ \t]+(.+)$/m.exec(draft.goal)?.[1] ?? null;
  const rows: [string, string][] = [
    ['goal', draft.goal.trim() === '' ? 'none written' : (title ?? `${draft.goal.trim().length} characters`)],
    ['profile', profile || 'none'],
    ['model', `${draft.provider || 'configured provider'} / ${draft.model || 'configured model'}`],
    ['executor', draft.executor || 'as configured'],
    ...(draft.executor === 'slurm' ? ([['partition', draft.partition || 'as configured']] as [string, string][]) : []),
    ['container', draft.container_image.trim() || 'as configured'],
    ['files', draft.files.length === 0 ? 'none' : draft.files.map((f) => f.name).join(', ')],
    ['ideas', draft.ideas_by_teams ? `the multi-agent engine: team size ${draft.ideas_team_size.trim() || 'default'}, ${draft.ideas_rounds.trim() || 'default'} rounds` : 'as configured'],
  ];
  const walltime = settings.data?.slurm_walltime;
  return (
    <div className="cards">
      <section className="card" aria-labelledby="new-summary-title">
        <h2 id="new-summary-title">Summary</h2>
        <Facts rows={rows} />
      </section>
      <section className="card" aria-labelledby="new-cost-title">
        <h2 id="new-cost-title">Cost and time</h2>
        <p>
          <strong>No estimate available:</strong> svc has no estimator for a search run. Its cost depends on the answers the model gives, its
          time on the code the model writes. The run's cost so far shows on the Monitor page while it runs.
        </p>
        <p>The limits this launch applies:</p>
        <Facts
          rows={[
            ['experiments', `at most ${cap('max_nodes')}`],
            ['depth', `at most ${cap('max_depth')}`],
            ['at once', cap('workers')],
            ...(draft.executor === 'slurm' ? ([['job wall time', settings.error ? `unknown: ${settings.error}` : (walltime ?? 'as configured')]] as [string, string][]) : []),
          ]}
        />
      </section>
    </div>
  );
}

function Facts({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="facts">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
