import { Loading } from '../../components/states.tsx';
import { useApi } from '../../use-api.ts';
import { SLURM_FIELDS } from './fields.ts';
import { SettingsForm } from './SettingsForm.tsx';
import type { Partition, SettingsView } from './types.ts';

type Props = { view: SettingsView; onSaved: (view: SettingsView) => void };

/** Slurm job defaults, and the partitions the scheduler here offers. */
export function SlurmSection({ view, onSaved }: Props) {
  const partitions = useApi<{ partitions: Partition[] }>('/api/slurm/partitions');
  return (
    <>
      <SettingsForm title="Slurm job defaults" fields={SLURM_FIELDS} view={view} onSaved={onSaved} />
      <section className="card" aria-labelledby="settings-partitions">
        <h2 id="settings-partitions">Partitions here</h2>
        {partitions.error && <p className="notice error">Slurm cannot be asked here: {partitions.error}</p>}
        {!partitions.error && !partitions.data && <Loading what="the partitions" />}
        {partitions.data?.partitions.length === 0 && <p className="state empty">The scheduler lists no partitions.</p>}
        {partitions.data && partitions.data.partitions.length > 0 && (
          <div className="settings-scroll">
            <table className="settings-table">
              <thead>
                <tr>
                  <th scope="col">Partition</th>
                  <th scope="col">State</th>
                  <th scope="col">Time limit</th>
                  <th scope="col">Nodes</th>
                  <th scope="col">GPUs and other resources</th>
                </tr>
              </thead>
              <tbody>
                {partitions.data.partitions.map((p) => (
                  <tr key={`${p.name} ${p.gres.join(',')}`}>
                    <th scope="row">
                      {p.name}
                      {p.default && <span className="badge">default</span>}
                    </th>
                    <td>{p.available}</td>
                    <td>{p.timelimit}</td>
                    <td>{p.nodes}</td>
                    <td>{p.gres.join(', ') || '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

