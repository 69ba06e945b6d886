import type { ReactNode } from 'react';

/** What an action of the panel came to: the server's answer in a sentence, or its `{error}`. */
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

/** One row of a `dl.facts`. */
export function Fact({ name, value }: { name: string; value: ReactNode }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </div>
  );
}

