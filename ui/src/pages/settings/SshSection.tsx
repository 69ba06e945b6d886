import { useState } from 'react';
import { postJson } from '../../api.ts';
import { SSH_FIELDS } from './fields.ts';
import { SettingsForm } from './SettingsForm.tsx';
import type { SettingsView, SshProbe } from './types.ts';
import { valueOf } from './values.ts';
import { OutcomeNotice } from '../../components/OutcomeNotice.tsx';

type Props = { view: SettingsView; onSaved: (view: SettingsView) => void };

/** The cluster login, and a test of it with the saved values. */
export function SshSection({ view, onSaved }: Props) {
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const host = String(valueOf(view, 'ssh_host') ?? '');
  const test = async () => {
    setBusy(true);
    setOutcome(null);
    const login = { host, port: Number(valueOf(view, 'ssh_port')) || 22, user: String(valueOf(view, 'ssh_user') ?? '') || undefined, key: String(valueOf(view, 'ssh_key') ?? '') || undefined };
    try {
      const r = await postJson<SshProbe>('/api/ssh/test', login);
      setOutcome(r.ok ? { ok: true, text: `Logged in to ${r.host} in ${r.elapsed_ms} ms.` } : { ok: false, text: `Could not log in to ${r.host}: ${r.reason}` });
    } catch (err) {
      setOutcome({ ok: false, text: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <SettingsForm title="SSH login of the cluster" fields={SSH_FIELDS} view={view} onSaved={onSaved} />
      <section className="card" aria-labelledby="settings-ssh-test">
        <h2 id="settings-ssh-test">Test the login</h2>
        <p className="meta">Tries the saved host, port, user and key without a password prompt.</p>
        <button type="button" onClick={test} disabled={busy || host === ''}>
          {busy ? 'Testing…' : host === '' ? 'Save a host to test it' : `Test ${host}`}
        </button>
        <OutcomeNotice outcome={outcome} />
      </section>
    </>
  );
}
