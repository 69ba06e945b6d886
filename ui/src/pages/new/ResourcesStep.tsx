import { ErrorMessage, Loading } from '../../components/states.tsx';
import { type Loaded, useApi } from '../../use-api.ts';
import type { Draft } from './draft.ts';
import { Field } from './Field.tsx';
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
      <Field
        label="Executor"
        help={
          detected.data &&
          `Found here: ${EXECUTORS.filter((x) => found(x.id))
            .map((x) => x.label)
            .join(', ')}${detected.data.slurm.error ? ` (Slurm: ${detected.data.slurm.error})` : ''}`
        }
      >
        {(control) => (
          <select {...control} value={draft.executor} onChange={(e) => onChange({ executor: e.target.value })}>
            <option value="">as configured</option>
            {EXECUTORS.map((x) => (
              <option key={x.id} value={x.id}>
                {x.label}
                {detected.data && !found(x.id) ? ' (not found here)' : ''}
              </option>
            ))}
          </select>
        )}
      </Field>
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
    <Field label="Partition" help={list.data.partitions.length === 0 ? 'The controller reports no partitions.' : undefined}>
      {(control) => (
        <select {...control} value={partition} onChange={(e) => onChange(e.target.value)}>
          <option value="">as configured{fallback ? ` (the cluster's default: ${fallback})` : ''}</option>
          {list.data?.partitions.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}: {p.available}, {p.nodes} nodes, limit {p.timelimit}
              {p.gres.length > 0 ? `, ${p.gres.join(' ')}` : ''}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function ContainerChoice({ image, onChange }: { image: string; onChange: (image: string) => void }) {
  const info = useApi<ContainerInfo>('/api/container/info');
  return (
    <Field label="Container image" help={<ContainerNote info={info} />}>
      {(control) => (
        <input {...control} value={image} placeholder={info.data?.image ? `as configured (${info.data.image})` : 'none: commands run without a container'} onChange={(e) => onChange(e.target.value)} />
      )}
    </Field>
  );
}

/** What the container probe found: the runtime the mode selects, or why there is none. */
function ContainerNote({ info }: { info: Loaded<ContainerInfo> }) {
  if (info.error) return <span className="error-text">{info.error}</span>;
  if (!info.data) return <>Probing the container runtimes…</>;
  const { mode, runtime, version, error } = info.data;
  return (
    <>
      Mode {mode}; runtime: {runtime ? `${runtime}${version ? ` (${version})` : ''}` : 'none usable'}
      {error ? `: ${error}` : ''}
    </>
  );
}
