import { ErrorMessage, Loading } from '../../components/states.tsx';
import { useApi } from '../../use-api.ts';
import { CONTAINER_FIELDS } from './fields.ts';
import { SettingsForm } from './SettingsForm.tsx';
import type { ContainerInfo, SettingsView } from './types.ts';

type Props = { view: SettingsView; onSaved: (view: SettingsView) => void };

/** The container image and runtime nodes run in, and the runtimes found on this machine. */
export function ContainerSection({ view, onSaved }: Props) {
  const info = useApi<ContainerInfo>('/api/container/info');
  return (
    <>
      <SettingsForm title="Container" fields={CONTAINER_FIELDS} view={view} onSaved={onSaved} />
      <section className="card" aria-labelledby="settings-runtimes">
        <h2 id="settings-runtimes">Runtimes here</h2>
        {info.error && <ErrorMessage message={info.error} retry={info.reload} />}
        {!info.error && !info.data && <Loading what="the container runtimes" />}
        {info.data && (
          <>
            <p className={`notice ${info.data.found ? 'ok' : 'error'}`}>
              {info.data.found
                ? `Nodes would run in ${info.data.runtime}${info.data.version ? ` (${info.data.version})` : ''}${info.data.image ? ` with ${info.data.image}` : ', but no image is set'}.`
                : `No usable runtime for mode ${info.data.mode}.`}
            </p>
            <ul className="settings-vars">
              {info.data.runtimes.map((r) => (
                <li key={r.runtime}>
                  <strong>{r.runtime}</strong>: {r.found ? (r.version ?? r.path ?? 'found') : 'not installed'}
                  {r.error && <span className="meta settings-meaning">{r.error}</span>}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </>
  );
}
