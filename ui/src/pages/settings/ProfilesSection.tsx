import { ErrorMessage, Loading } from '../../components/states.tsx';
import { useApi } from '../../use-api.ts';
import { PROFILE_FIELDS } from './fields.ts';
import { SettingsForm } from './SettingsForm.tsx';
import type { Profiles, SettingsView } from './types.ts';

type Props = { view: SettingsView; onSaved: (view: SettingsView) => void };

/** The run profiles (laptop, hpc, cloud) with what each sets, and the one new runs use. */
export function ProfilesSection({ view, onSaved }: Props) {
  const profiles = useApi<Profiles>('/api/profiles');
  if (profiles.error) return <ErrorMessage message={profiles.error} retry={profiles.reload} />;
  if (!profiles.data) return <Loading what="the profiles" />;
  const saved = (next: SettingsView) => {
    onSaved(next);
    profiles.reload();
  };
  return (
    <>
      <SettingsForm title="Profile" fields={PROFILE_FIELDS(profiles.data.profiles.map((p) => p.name))} view={view} onSaved={saved} />
      <div className="cards">
        {profiles.data.profiles.map((p) => (
          <section key={p.name} className="card" aria-labelledby={`settings-profile-${p.name}`}>
            <h2 id={`settings-profile-${p.name}`}>
              {p.name} {profiles.data?.selected === p.name && <span className="badge">selected</span>}
            </h2>
            <dl className="facts">
              {Object.entries(p.values).map(([k, v]) => (
                <div key={k}>
                  <dt>{k}</dt>
                  <dd>{v}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </>
  );
}
