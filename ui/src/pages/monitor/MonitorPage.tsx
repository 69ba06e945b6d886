import { useCallback, useEffect, useState } from 'react';
import { getJson, postJson } from '../../api.ts';
import { ErrorMessage, Loading } from '../../components/states.tsx';
import { href, type Route } from '../../route.ts';
import type { ActiveCheckpoint, CheckpointEntry } from '../../types.ts';
import { useApi, useEvery } from '../../use-api.ts';
import { PhaseStepper } from './PhaseStepper.tsx';
import { ResourceCharts } from './ResourceCharts.tsx';
import { RunControls } from './RunControls.tsx';
import { RunFacts } from './RunFacts.tsx';
import { RunLog } from './RunLog.tsx';
import type { RunState } from './types.ts';
import './monitor.css';

/** How often the run's state is read; the Experiments list reads the same status, from the same function. */
const STATE_MS = 3000;
/** How often the checkpoints are looked through for a run started elsewhere. */
const LIST_MS = 10_000;

/**
 * The active run: `#/monitor`, or `#/monitor/<checkpoint>`, which makes that checkpoint the active
 * one. Its status, phases, node counts and cost, the machine's load, the live log, and the stop,
 * resume and run-stage buttons.
 */
export function MonitorPage({ route }: { route: Route }) {
  const [state, setState] = useState<RunState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [switchError, setSwitchError] = useState<string | null>(null);
  const wanted = route.parts[0];
  const refresh = useCallback(() => {
    getJson<RunState>('/state')
      .then((s) => {
        setState(s);
        setError(null);
      })
      .catch((err: unknown) => setError((err as Error).message));
  }, []);
  useEvery(STATE_MS, refresh);
  const follow = useCallback(
    (id: string) => {
      setSwitchError(null);
      postJson<ActiveCheckpoint>('/api/switch-checkpoint', { id })
        .then(refresh)
        .catch((err: unknown) => setSwitchError(`${id}: ${(err as Error).message}`));
    },
    [refresh],
  );
  // the address names the run to show: it becomes the active one (once per address)
  useEffect(() => {
    if (wanted) follow(wanted);
  }, [wanted, follow]);

  return (
    <section className="page">
      <h1>Monitor</h1>
      {switchError && <p className="notice error" role="alert">{switchError}</p>}
      {state && <RunningElsewhere active={state.checkpoint_id ?? null} />}
      {error && <ErrorMessage message={error} retry={refresh} />}
      {!state && !error && <Loading what="the run's state" />}
      {state && !state.checkpoint_id && (
        <p className="state empty">
          No checkpoint is active: start a run on <a href={href('new')}>New experiment</a> or with <code>svc run</code>, or pick one on <a href={href('experiments')}>Experiments</a>.
        </p>
      )}
      {state?.checkpoint_id && (
        <>
          <RunHeader state={state} />
          <div className="cards">
            <RunFacts state={state} />
            <RunControls state={state} changed={refresh} />
          </div>
          <PhaseStepper state={state} />
        </>
      )}
      {state && <ResourceCharts />}
      {state?.checkpoint_id && <RunLog checkpoint={state.checkpoint_id} running={state.is_running} />}
    </section>
  );
}

/** The run's name and its status, as /state gives it (the Experiments list shows the same). */
function RunHeader({ state }: { state: RunState }) {
  const status = state.status ?? 'new';
  return (
    <p className="monitor-header">
      <span className="monitor-run">{state.checkpoint_id}</span> <span className={`status status-${status}`}>{status}</span>{' '}
      {state.status_label !== status && <span className="meta">{state.status_label}</span>}
    </p>
  );
}

/** Runs that are running but not the one shown, e.g. started in a terminal after the dashboard: one click follows one. */
function RunningElsewhere({ active }: { active: string | null }) {
  const list = useApi<CheckpointEntry[]>('/api/checkpoints', { every: LIST_MS });
  const others = (list.data ?? []).filter((c) => c.status === 'running' && c.id !== active);
  if (others.length === 0) return null;
  return (
    <div className="notice monitor-elsewhere" role="status">
      {others.map((c) => (
        <p key={c.id}>
          <span className="monitor-run">{c.id}</span> is running. <a href={href('monitor', c.id)}>Follow it</a>
        </p>
      ))}
    </div>
  );
}
