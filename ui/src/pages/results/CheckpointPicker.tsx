import { href } from '../../route.ts';
import type { CheckpointEntry } from '../../types.ts';
import { useApi } from '../../use-api.ts';

/** Chooses the checkpoint the page shows; the active one is marked. */
export function CheckpointPicker({ current, activeId }: { current: string | null; activeId: string | null }) {
  const list = useApi<CheckpointEntry[]>('/api/checkpoints');
  const ids = (list.data ?? []).map((c) => c.id);
  if (current && !ids.includes(current)) ids.unshift(current);
  return (
    <div className="toolbar">
      <label>
        Checkpoint
        <select aria-label="Checkpoint" value={current ?? ''} onChange={(e) => (location.hash = href('results', e.target.value))} disabled={ids.length === 0}>
          {current === null && <option value="">none</option>}
          {ids.map((id) => (
            <option key={id} value={id}>
              {id}
              {id === activeId ? ' (active)' : ''}
            </option>
          ))}
        </select>
      </label>
      {list.error && <span className="notice error">{list.error}</span>}
    </div>
  );
}
