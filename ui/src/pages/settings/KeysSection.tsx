import { type FormEvent, useState } from 'react';
import { postJson } from '../../api.ts';
import { ErrorMessage, Loading } from '../../components/states.tsx';
import { useApi } from '../../use-api.ts';
import type { EnvKey, EnvKeysSaved } from './types.ts';
import { type Outcome, OutcomeNotice } from '../../components/OutcomeNotice.tsx';

/**
 * API keys and other variables: names and whether they are set, never values. A value typed here
 * goes to the project's .env; the inputs are emptied once it is saved.
 */
export function KeysSection() {
  const keys = useApi<EnvKey[]>('/api/env-keys');
  const [values, setValues] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (pairs: Record<string, string>): Promise<boolean> => {
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await postJson<EnvKeysSaved>('/api/env-keys', pairs);
      setValues({});
      setOutcome({ ok: true, text: `Saved ${answer.saved.join(', ')} to ${answer.file}.` });
      keys.reload();
      return true;
    } catch (err) {
      setOutcome({ ok: false, text: err instanceof Error ? err.message : String(err) });
      return false;
    } finally {
      setBusy(false);
    }
  };
  if (keys.error) return <ErrorMessage message={keys.error} retry={keys.reload} />;
  if (!keys.data) return <Loading what="the variables" />;
  const secrets = keys.data.filter((k) => k.secret);
  const others = keys.data.filter((k) => !k.secret);
  const typed = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void save(typed);
  };
  return (
    <>
      <form className="card" onSubmit={onSubmit} aria-labelledby="settings-keys-title">
        <h2 id="settings-keys-title">API keys</h2>
        <p className="meta">Values are written to the project's .env file and never shown again; leave a field empty to keep what is set.</p>
        <div className="settings-scroll">
          <table className="settings-table settings-keys">
            <thead>
              <tr>
                <th scope="col">Variable</th>
                <th scope="col">Status</th>
                <th scope="col">New value</th>
              </tr>
            </thead>
            <tbody>
              {secrets.map((k) => (
                <tr key={k.name} data-name={k.name}>
                  <th scope="row">
                    <code>{k.name}</code>
                    {k.meaning && <span className="meta settings-meaning">{k.meaning}</span>}
                  </th>
                  <td className="settings-status">{k.set ? `set (${k.source})` : 'not set'}</td>
                  <td>
                    <input
                      type="password"
                      autoComplete="off"
                      aria-label={`New value of ${k.name}`}
                      value={values[k.name] ?? ''}
                      onChange={(e) => setValues({ ...values, [k.name]: e.target.value })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="settings-actions">
          <button type="submit" disabled={busy || Object.keys(typed).length === 0}>
            Save keys
          </button>
          <OutcomeNotice outcome={outcome} />
        </div>
      </form>
      <OtherVariable busy={busy} onSave={save} />
      <details className="card">
        <summary>Other variables svc reads ({others.length})</summary>
        <ul className="settings-vars">
          {others.map((k) => (
            <li key={k.name}>
              <code>{k.name}</code> <span className="meta">{k.set ? `set (${k.source})` : 'not set'}</span>
              {k.meaning && <span className="meta settings-meaning">{k.meaning}</span>}
            </li>
          ))}
        </ul>
      </details>
    </>
  );
}

/** Any variable by name (a credential svc does not list, or one of its own settings). */
function OtherVariable({ busy, onSave }: { busy: boolean; onSave: (pairs: Record<string, string>) => Promise<boolean> }) {
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await onSave({ [name.trim()]: value })) setValue('');
  };
  return (
    <form className="card toolbar" onSubmit={submit} aria-label="Set another variable">
      <label>
        Variable name
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder="MY_SERVICE_API_KEY" />
      </label>
      <label>
        Value
        <input type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} />
      </label>
      <button type="submit" disabled={busy || name.trim() === ''}>
        Save variable
      </button>
    </form>
  );
}
