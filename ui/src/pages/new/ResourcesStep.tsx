import { ErrorMessage, Loading } from '../../components/states.tsx';
import { useApi } from '../../use-api.ts';
import type { Draft } from './draft.ts';
import type { ContainerInfo, SchedulerDetection, SlurmPartition } from './types.ts';

type Props = { draft: Draft; onChange: (change: Partial<Draft>) => void };

const EXECUTORS = [
  { id: 'local', label: 'this machine' },
  { id: 'slurm', label: 'Slurm' },
  { id: 'pbs', label: 'PBS' },
  { id: 'lsf', label: 'LSF' },
] as const;

/** Where node commands run: the executor (with a Slurm partition) and the container image. */
export function ResourcesStep({ draft, onChange }: Props) {
  const detected = useApi<SchedulerDetection>('/api/scheduler/detect');
  const found = (id: string) => id === 'local' || (detected.data?.[id as 'slurm' | 'pbs' | 'lsf']?.found ?? false);
  return (
    <div className="new-form">
      {detected.error && <ErrorMessage message={detected.error} retry={detected.reload} />}
      {!detected.data && !detected.error && <Loading what="the schedulers of this machine" />}
      <label>
        Executor
        <select value={draft.executor} onChange={(e) => onChange({ executor: e.target.value })}>
          <option value="">as configured</option>
          {EXECUTORS.map((x) => (
            <option key={x.id} value={x.id}>
              {x.label}
              {detected.data && !found(x.id) ? ' (not found here)' : ''}
            </option>
          ))}
        </select>
        {detected.data && (
          <span className="meta">
            Found here: {EXECUTORS.filter((x) => found(x.id)).map((x) => x.label).join(', ')}
            {detected.data.slurm.error ? ` (Slurm: ${detected.data.slurm.error})` : ''}
          </span>
        )}
      </label>
      {draft.executor === 'slurm' && <PartitionChoice partition={draft.partition} onChange={(partition) => onChange({ partition })} />}
      <ContainerChoice image={draft.container_image} onChange={(container_image) => onChange({ container_image })} />
    </div>
  );
}

function PartitionChoice({ partition, onChange }: { partition: string; onChange: (p: string) => void }) {
  const list = useApi<{ partitions: SlurmPartition[] }>('/api/slurm/partitions');
  if (list.error) return <ErrorMessage message={`Slurm partitions: ${list.error}`} retry={list.reload} />;
  if (!list.data) return <Loading what="the Slurm partitions" />;
  const fallback = list.data.partitions.find((p) => p.default)?.name;
  return (
    <label>
      Partition
      <select value={partition} onChange={(e) => onChange(e.target.value)}>
        <option value="">as configured{fallback ? ` (the cluster's default: ${fallback})` : ''}</option>
        {list.data.partitions.map((p) => (
          <option key={p.name} value={p.name}>
            {p.name}: {p.available}, {p.nodes} nodes, limit {p.timelimit}
            {p.gres.length > 0 ? `, ${p.gres.join(' ')}` : ''}
          </option>
        ))}
      </select>
      {list.data.partitions.length === 0 && <span className="meta">The controller reports no partitions.</span>}
    </label>
  );
}

function ContainerChoice({ image, onChange }: { image: string; onChange: (image: string) => void }) {
  const info = useApi<ContainerInfo>('/api/container/info');
  return (
    <label>
      Container image
      <input value={image} placeholder={info.data?.image ? `as configured (${info.data.image})` : 'none: commands run without a container'} onChange={(e) => onChange(e.target.value)} />
      {info.error && <span className="error-text">{info.error}</span>}
      {info.loading && !info.data && <span className="meta">Probing the container runtimes…</span>}
      {info.data && (
        <span className="meta">
          Mode {info.data.mode}; runtime: {info.data.runtime ? `${info.data.runtime}${info.data.version ? ` (${info.data.version})` : ''}` : 'none usable'}
          {info.data.error ? `: ${info.data.error}` : ''}
        </span>
      )}
    </label>
  );
}
