import { useState } from 'react';
import { getJson } from '../../api.ts';
import type { CheckpointEntry } from '../../types.ts';
import { useApi } from '../../use-api.ts';
import { Field } from './Field.tsx';

type Props = { onLoad: (text: string) => void };

/** Starts the goal from an earlier run's experiment.md (GET /api/experiment-detail), to repeat or vary it. */
export function EarlierGoal({ onLoad }: Props) {
  const runs = useApi<CheckpointEntry[]>('/api/checkpoints');
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (runs.error) return <p className="error-text">Earlier runs: {runs.error}</p>;
  // a new workspace has none: nothing to offer, nothing to say
  if (!runs.data || runs.data.length === 0) return null;
  const load = async () => {
    setError(null);
    try {
      onLoad((await getJson<{ text: string }>(`/api/experiment-detail?id=${encodeURIComponent(chosen)}`)).text);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <div className="new-earlier">
      <Field label="Start from an earlier run" help={error ?? undefined}>
        {(control) => (
          <select {...control} value={chosen} onChange={(e) => setChosen(e.target.value)}>
            <option value="">choose a run</option>
            {runs.data?.map((r) => (
              <option key={r.id} value={r.id}>
                {r.id}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="button" disabled={chosen === ''} onClick={() => void load()}>
        Use its goal
      </button>
    </div>
  );
}
