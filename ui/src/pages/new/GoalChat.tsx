import { type FormEvent, useState } from 'react';
import { postJson } from '../../api.ts';
import { Markdown } from '../../components/Markdown.tsx';
import type { GoalAnswer, GoalTurn } from './types.ts';

type Props = { goal: string; onAccept: (goal: string) => void };

/**
 * A conversation with the model about the goal (POST /api/chat-goal): each answer carries a
 * refined goal, which replaces the editor's text only when the researcher accepts it.
 */
export function GoalChat({ goal, onAccept }: Props) {
  const [turns, setTurns] = useState<GoalTurn[]>([]);
  const [message, setMessage] = useState('');
  const [proposal, setProposal] = useState<GoalAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    const asked = [...turns, ...(message.trim() ? [{ role: 'user' as const, content: message.trim() }] : [])];
    setBusy(true);
    setError(null);
    try {
      const answer = await postJson<GoalAnswer>('/api/chat-goal', { goal, messages: asked });
      setTurns([...asked, { role: 'assistant', content: answer.reply }]);
      setProposal(answer);
      setMessage('');
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const accept = () => {
    if (!proposal) return;
    onAccept(proposal.goal);
    setProposal(null);
  };

  return (
    <section className="card new-chat" aria-labelledby="new-chat-title">
      <h2 id="new-chat-title">Refine with the model</h2>
      {turns.length === 0 && <p className="meta">Ask the model to sharpen the goal: it asks what is missing and proposes a rewritten goal.</p>}
      <ol className="new-turns" aria-label="Conversation">
        {turns.map((t, i) => (
          <li key={i} className={`new-turn new-turn-${t.role}`}>
            <span className="meta">{t.role === 'user' ? 'You' : 'Model'}</span>
            <p>{t.content}</p>
          </li>
        ))}
      </ol>
      {proposal && (
        <div className="new-proposal">
          <h3>Proposed goal ({proposal.model})</h3>
          <Markdown text={proposal.goal} />
          <div className="toolbar">
            <button type="button" onClick={accept}>
              Use this goal
            </button>
            <button type="button" onClick={() => setProposal(null)}>
              Keep mine
            </button>
          </div>
        </div>
      )}
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      <form className="new-chat-form" onSubmit={(e) => void send(e)}>
        <label>
          Message to the model
          <textarea value={message} onChange={(e) => setMessage(e.target.value)} rows={2} />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Asking…' : 'Send'}
        </button>
      </form>
    </section>
  );
}
