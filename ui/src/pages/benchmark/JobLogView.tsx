import { useEffect, useRef } from 'react';
import type { JobLog } from './use-job-log.ts';

/** The job's log as it comes, following the end unless the reader scrolled up. */
export function JobLogView({ log }: { log: JobLog }) {
  const box = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  useEffect(() => {
    const el = box.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  }, [log.lines]);
  const dropped = log.total - log.lines.length;
  return (
    <section className="card bench-log" aria-labelledby="bench-log-title">
      <h2 id="bench-log-title">
        Log <span className="bench-log-state">{log.done ? `ended: ${log.done}` : log.error ? '' : 'live'}</span>
      </h2>
      {log.error && !log.done && <p className="notice error">{log.error}</p>}
      {dropped > 0 && <p className="meta">{dropped} earlier lines are not shown.</p>}
      <div
        ref={box}
        className="bench-log-lines"
        role="log"
        aria-label="Log lines"
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
      >
        {log.lines.length === 0 && <div className="bench-log-empty">{log.done ? 'The job logged nothing.' : 'Waiting for the first line…'}</div>}
        {log.lines.map((l, i) => (
          <div key={dropped + i} className={`bench-level-${l.level}`}>
            <span className="bench-log-ts">{l.ts.slice(11, 19)}</span> <span className="bench-log-level">{l.level}</span> {l.msg}
          </div>
        ))}
      </div>
    </section>
  );
}
