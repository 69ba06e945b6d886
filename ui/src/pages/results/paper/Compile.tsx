import { useState } from 'react';
import { postJsonAnswer } from '../../../api.ts';
import type { CompileAnswer } from '../types.ts';

type Outcome = { ok: boolean; message: string; log: string[] };

/** Compiles a .tex with latexmk on the server; a failure shows TeX's error and the end of its log. */
export function Compile({ id, tex, compiled }: { id: string; tex: string; compiled: (pdf: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const run = () => {
    setBusy(true);
    setOutcome(null);
    postJsonAnswer<CompileAnswer>('/api/checkpoint/compile', { id, path: tex })
      .then(({ ok, body }) => {
        const log = body.log_tail ?? [];
        if (ok && body.pdf) {
          setOutcome({ ok: true, message: `Compiled ${tex} to ${body.pdf}.`, log });
          compiled(body.pdf);
        } else setOutcome({ ok: false, message: body.error ?? 'the compile failed without saying why', log });
      })
      .catch((err: Error) => setOutcome({ ok: false, message: err.message, log: [] }))
      .finally(() => setBusy(false));
  };
  return (
    <>
      <div className="toolbar">
        <button type="button" onClick={run} disabled={busy}>
          {busy ? 'Compiling…' : `Compile ${tex.split('/').pop()}`}
        </button>
      </div>
      {outcome && (
        <p className={`notice ${outcome.ok ? 'ok' : 'error'}`} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.message}
        </p>
      )}
      {outcome && !outcome.ok && outcome.log.length > 0 && (
        <details open>
          <summary>End of the LaTeX log</summary>
          <pre className="results-log" tabIndex={0} aria-label="End of the LaTeX log">
            {outcome.log.join('\n')}
          </pre>
        </details>
      )}
    </>
  );
}
