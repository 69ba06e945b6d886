import { useState } from 'react';
import { postJson } from '../../api.ts';
import { ErrorMessage, Loading } from '../../components/states.tsx';
import { useApi } from '../../use-api.ts';
import { MEMORY_FIELDS } from './fields.ts';
import { SettingsForm } from './SettingsForm.tsx';
import type { MemoryDetect, MemoryStart, MemoryStop, SettingsView } from './types.ts';
import { OutcomeNotice } from '../../components/OutcomeNotice.tsx';

type Props = { view: SettingsView; onSaved: (view: SettingsView) => void };

/** The memory backend: whether it answers, what runs, and the workspace's local server to start or stop. */
export function MemorySection({ view, onSaved }: Props) {
  // detect answers for a down server too (health is an error then), and lists the deployments
  const detect = useApi<MemoryDetect>('/api/memory/detect');
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const act = async (label: string, path: string) => {
    setBusy(label);
    setOutcome(null);
    try {
      const r = await postJson<MemoryStart | MemoryStop>(path, {});
      const warnings = 'warnings' in r && r.warnings.length > 0 ? ` Warnings: ${r.warnings.join('; ')}` : '';
      setOutcome({ ok: true, text: `${r.message}.${warnings}` });
    } catch (err) {
      setOutcome({ ok: false, text: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(null);
      detect.reload();
    }
  };
  return (
    <>
      <section className="card" aria-labelledby="settings-memory-title">
        <h2 id="settings-memory-title">Memory backend</h2>
        {detect.error && <ErrorMessage message={detect.error} retry={detect.reload} />}
        {!detect.error && !detect.data && <Loading what="the memory backend" />}
        {detect.data && <Status detect={detect.data} />}
        <div className="toolbar">
          <button type="button" onClick={() => act('start', '/api/memory/start-local')} disabled={busy !== null}>
            {busy === 'start' ? 'Starting…' : 'Start local server'}
          </button>
          <button type="button" onClick={() => act('restart', '/api/memory/restart')} disabled={busy !== null}>
            {busy === 'restart' ? 'Restarting…' : 'Restart'}
          </button>
          <button type="button" className="danger" onClick={() => act('stop', '/api/memory/stop-local')} disabled={busy !== null}>
            {busy === 'stop' ? 'Stopping…' : 'Stop local server'}
          </button>
          <button type="button" onClick={detect.reload} disabled={busy !== null}>
            Check again
          </button>
        </div>
        <OutcomeNotice outcome={outcome} />
      </section>
      <SettingsForm title="Memory server" fields={MEMORY_FIELDS} view={view} onSaved={onSaved} />
    </>
  );
}

function Status({ detect }: { detect: MemoryDetect }) {
  return (
    <>
      <p className={`notice ${detect.reachable ? 'ok' : 'error'}`} data-testid="memory-status">
        {detect.reachable ? `Up: the memory server at ${detect.url} answers${detect.version ? ` (version ${detect.version})` : ''}.` : `Down: ${detect.error ?? `nothing answers at ${detect.url}`}`}
      </p>
      {detect.deployments.length > 0 && (
        <ul className="settings-vars">
          {detect.deployments.map((d) => (
            <li key={`${d.found_by} ${d.id}`}>
              {d.path} ({d.found_by} {d.id}) at {d.url}: {d.reachable ? 'answers' : 'does not answer'}
              {d.managed ? ', started here' : ''}
            </li>
          ))}
        </ul>
      )}
      <p className="meta">
        Looked for:{' '}
        {Object.entries(detect.probes)
          .map(([k, v]) => `${k} ${v}`)
          .join('; ')}
      </p>
    </>
  );
}
