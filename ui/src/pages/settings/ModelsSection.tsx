import { ErrorMessage, Loading } from '../../components/states.tsx';
import { useApi } from '../../use-api.ts';
import { MODEL_FIELDS, PHASE_MODEL_FIELDS } from './fields.ts';
import { SettingsForm } from './SettingsForm.tsx';
import type { Models, SettingsView } from './types.ts';

type Props = { view: SettingsView; onSaved: (view: SettingsView) => void };

/** The model backend, the model of each phase, and which model each role ends up with. */
export function ModelsSection({ view, onSaved }: Props) {
  const models = useApi<Models>('/api/models');
  const names = [...new Set([...(models.data?.local.models ?? []), ...(models.data?.providers.flatMap((p) => p.models) ?? [])])];
  return (
    <>
      <SettingsForm title="Model backend" fields={MODEL_FIELDS} view={view} models={names} onSaved={onSaved} />
      <SettingsForm title="Models per phase" fields={PHASE_MODEL_FIELDS} view={view} models={names} onSaved={onSaved} />
      <section className="card" aria-labelledby="settings-roles">
        <h2 id="settings-roles">What each role uses</h2>
        {models.error && <ErrorMessage message={models.error} retry={models.reload} />}
        {!models.error && !models.data && <Loading what="the models" />}
        {models.data && <Roles models={models.data} />}
      </section>
    </>
  );
}

function Roles({ models }: { models: Models }) {
  const { local, providers } = models;
  return (
    <>
      <p className={`notice ${local.reachable ? 'ok' : 'error'}`}>
        {local.reachable ? `The local model daemon at ${local.url} answers (${local.models?.length ?? 0} models).` : (local.error ?? `The local model daemon at ${local.url} is not reachable.`)}
      </p>
      <p className="meta">
        {providers.length === 0
          ? 'No hosted provider has a key set: add one under API keys.'
          : `Hosted providers with a key: ${providers.map((p) => `${p.id} (${p.key_variable})`).join(', ')}.`}
      </p>
      <div className="settings-scroll">
        <table className="settings-table">
          <thead>
            <tr>
              <th scope="col">Role</th>
              <th scope="col">Model</th>
              <th scope="col">Backend</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {models.roles.map((r) => (
              <tr key={r.role}>
                <th scope="row">{r.role}</th>
                <td>{r.model}</td>
                <td>{r.backend}</td>
                <td className="meta">{r.why}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
