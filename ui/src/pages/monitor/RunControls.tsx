import { useState } from 'react';
import { postJson } from '../../api.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useApi } from '../../use-api.ts';
import type { Flow, RunState, StageAnswer, StopAnswer } from './types.ts';
import { type Outcome, OutcomeNotice } from '../../components/OutcomeNotice.tsx';

/** The stage name the run-stage API takes for the whole post-search pipeline. */
const WHOLE_PIPELINE = 'paper';

/**
 * Stop (after a confirmation), resume, and run one stage of the active checkpoint. Each button
 * calls the API and shows its answer or its error; `changed` is called after each, so the page
 * reads the state again at once.
 */
export function RunControls({ state, changed }: { state: RunState; changed: () => void }) {
  const flow = useApi<Flow>('/api/workflow/flow');
  const [stage, setStage] = useState('');
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Outcome | null>(null);

  const act = async (task: () => Promise<string>) => {
    setBusy(true);
    try {
      setNotice({ ok: true, text: await task() });
    } catch (err) {
      setNotice({ ok: false, text: (err as Error).message });
    } finally {
      setBusy(false);
      changed();
    }
  };
  const stop = () => {
    setAsking(false);
    void act(async () => {
      const a = await postJson<StopAnswer>('/api/stop', {});
      return `Stopped process ${a.pid} (${a.signal}${a.exit_code === null ? '' : `, exit code ${a.exit_code}`}).`;
    });
  };
  const runStage = (name: string) =>
    void act(async () => {
      const a = await postJson<StageAnswer>('/api/run-stage', { stage: name });
      return a.stage === 'resume' ? `Resuming the search: process ${a.pid}.` : `Started ${a.stage}: process ${a.pid}.`;
    });

  const nodes = flow.data?.nodes ?? [];
  const search = nodes.filter((n) => n.list === 'bfts_pipeline');
  const post = nodes.filter((n) => n.list === 'pipeline');
  return (
    <section className="card monitor-controls" aria-labelledby="controls-title">
      <h2 id="controls-title">Control</h2>
      <OutcomeNotice outcome={notice} />
      <div className="toolbar">
        <button type="button" className="danger" disabled={busy || !state.is_running} onClick={() => setAsking(true)}>
          Stop
        </button>
        <button type="button" disabled={busy || state.is_running} onClick={() => runStage('resume')}>
          Resume
        </button>
      </div>
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          runStage(stage);
        }}
      >
        <label>
          Stage
          <select value={stage} onChange={(e) => setStage(e.target.value)}>
            <option value="">choose a stage</option>
            {search.length > 0 && (
              <optgroup label="Search">
                {search.map((n) => (
                  <option key={n.id} value={n.stage}>
                    {n.stage}
                    {n.enabled ? '' : ' (disabled)'}
                  </option>
                ))}
              </optgroup>
            )}
            <optgroup label="Post-search">
              <option value={WHOLE_PIPELINE}>the whole pipeline</option>
              {post.map((n) => (
                <option key={n.id} value={n.stage}>
                  {n.stage}
                  {n.enabled ? '' : ' (disabled)'}
                </option>
              ))}
            </optgroup>
          </select>
        </label>
        <button type="submit" disabled={busy || state.is_running}>
          Run stage
        </button>
      </form>
      {flow.error && <p className="notice error">The workflow's stages could not be read: {flow.error}</p>}
      <p className="meta">Stop ends a run this dashboard started; a run started in a terminal is stopped there (Ctrl-C).</p>
      {asking && (
        <ConfirmDialog title={`Stop ${state.checkpoint_id ?? 'the run'}?`} confirm="Stop the run" onConfirm={stop} onCancel={() => setAsking(false)}>
          <p>Running nodes are ended and the tree is saved; Resume continues from there.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
