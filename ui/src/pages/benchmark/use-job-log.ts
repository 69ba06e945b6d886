import { useEffect, useState } from 'react';
import { withToken } from '../../api.ts';
import type { LogLine } from './types.ts';

/** Lines kept in the view; older ones are dropped, the count says how many there were. */
const MAX_LOG_LINES = 5000;

/** Lines that arrive together are drawn together: a resumed stream sends thousands at once. */
const FLUSH_MS = 100;

export type JobLog = { lines: LogLine[]; total: number; done: string | null; error: string | null };

/**
 * A job's log, live: the server's event stream, from its first line. The browser reconnects on a
 * dropped connection with Last-Event-ID, so no line comes twice; `done` is the job's final status.
 */
export function useJobLog(jobId: string): JobLog {
  const [log, setLog] = useState<JobLog>({ lines: [], total: 0, done: null, error: null });
  useEffect(() => {
    setLog({ lines: [], total: 0, done: null, error: null });
    const source = new EventSource(withToken(`/api/bench/run/${encodeURIComponent(jobId)}/logs`));
    let pending: LogLine[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = () => {
      timer = null;
      const arrived = pending;
      pending = [];
      setLog((l) => ({ ...l, lines: [...l.lines, ...arrived].slice(-MAX_LOG_LINES), total: l.total + arrived.length, error: null }));
    };
    source.addEventListener('log', (e) => {
      pending.push(JSON.parse((e as MessageEvent<string>).data) as LogLine);
      timer ??= setTimeout(flush, FLUSH_MS);
    });
    source.addEventListener('done', (e) => {
      source.close();
      if (timer) clearTimeout(timer);
      flush();
      const { status } = JSON.parse((e as MessageEvent<string>).data) as { status: string };
      setLog((l) => ({ ...l, done: status }));
    });
    source.onerror = () => {
      // CLOSED: the server refused the stream (an unknown job); CONNECTING: the browser retries
      if (source.readyState === EventSource.CLOSED) setLog((l) => ({ ...l, error: 'The log stream was refused: the job may not exist.' }));
      else setLog((l) => ({ ...l, error: 'The log stream was interrupted; reconnecting…' }));
    };
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [jobId]);
  return log;
}
