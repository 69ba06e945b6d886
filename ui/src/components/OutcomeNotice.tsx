/** What an action came to: the server's answer in a sentence, or its `{error}`. */
export type Outcome = { ok: boolean; text: string };

/** The outcome of the last action, announced (an error as an alert); nothing before the first. */
export function OutcomeNotice({ outcome }: { outcome: Outcome | null }) {
  if (!outcome) return null;
  return (
    <p className={`notice ${outcome.ok ? 'ok' : 'error'}`} role={outcome.ok ? 'status' : 'alert'}>
      {outcome.text}
    </p>
  );
}
