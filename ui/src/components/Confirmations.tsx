import { useCallback, useState } from 'react';
import { getJson, postJson } from '../api.ts';
import type { HeldChange } from '../types.ts';
import { useEvery } from '../use-api.ts';

/**
 * Changes of where requests go that pages of other origins asked for: shown on every page until
 * answered here, since approving one sends the API keys elsewhere.
 */
export function Confirmations() {
  const [pending, setPending] = useState<HeldChange[]>([]);
  const [error, setError] = useState<string | null>(null);
  // a list that cannot be read is said so: an empty banner would hide changes waiting for approval
  const [unread, setUnread] = useState<string | null>(null);
  const refresh = useCallback(() => {
    getJson<{ pending: HeldChange[] }>('/api/confirmations')
      .then((b) => {
        setPending(b.pending);
        setUnread(null);
      })
      .catch((err: unknown) => setUnread((err as Error).message));
  }, []);
  useEvery(3000, refresh);
  const answer = (c: HeldChange, approve: boolean) => {
    postJson(`/api/confirmations/${encodeURIComponent(c.id)}`, { approve })
      .then(() => setError(null))
      .catch((err: unknown) => setError((err as Error).message))
      .finally(refresh);
  };
  if (unread !== null && pending.length === 0)
    return (
      <p className="notice error" role="alert">
        Changes waiting for your approval cannot be read: {unread}
      </p>
    );
  if (pending.length === 0) return null;
  return (
    <section className="confirmations" aria-labelledby="confirmations-title">
      <h2 id="confirmations-title">Waiting for your approval</h2>
      <p>A page of another website asked to change where svc sends requests (and your API keys with them). Approve only what you did yourself.</p>
      {error && <p className="error-text">{error}</p>}
      {unread && <p className="error-text">This list may be out of date: {unread}</p>}
      <ul>
        {pending.map((c) => (
          <li key={c.id}>
            {c.origin} wants to set {c.keys.join(', ')} ({c.method} {c.path}, {new Date(c.at).toLocaleTimeString()}){' '}
            <button type="button" onClick={() => answer(c, true)}>
              approve
            </button>{' '}
            <button type="button" onClick={() => answer(c, false)}>
              reject
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
