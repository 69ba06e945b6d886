import { useEffect, useRef, useState } from 'react';
import { withToken } from '../../api.ts';

/** lines kept in the log view; older ones scroll away */
const MAX_LOG_LINES = 2000;

/**
 * Follows /api/logs of the active checkpoint. The stream ends by itself once the run has ended;
 * when a run starts on the checkpoint again (resume, a stage), it is followed anew.
 */
export function RunLog({ checkpoint, running }: { checkpoint: string | null; running: boolean }) {
  const pre = useRef<HTMLPreElement>(null);
  const [lines, setLines] = useState<string[]>([]);
  const [label, setLabel] = useState('');
  const [round, setRound] = useState(0);
  const wasRunning = useRef(running);
  // a run that starts once the stream has ended: follow it anew
  useEffect(() => {
    if (running && !wasRunning.current && label === 'ended') setRound((r) => r + 1);
    wasRunning.current = running;
  }, [running, label]);
  useEffect(() => {
    setLines([]);
    if (checkpoint === null) {
      setLabel('no active checkpoint');
      return;
    }
    setLabel('following');
    const add = (msg: string) => setLines((l) => [...l.slice(-(MAX_LOG_LINES - 1)), msg]);
    // EventSource cannot set headers: the token goes in the query, which the server keeps out of its log
    const source = new EventSource(withToken('/api/logs?stream=1'));
    source.onmessage = (e) => add((JSON.parse(e.data as string) as { msg: string }).msg);
    source.addEventListener('done', (e) => {
      add((JSON.parse((e as MessageEvent).data as string) as { msg: string }).msg);
      setLabel('ended');
      source.close();
    });
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) setLabel('not available');
    };
    return () => source.close();
  }, [checkpoint, round]);
  useEffect(() => {
    const el = pre.current;
    if (el && el.scrollTop + el.clientHeight >= el.scrollHeight - 40) el.scrollTop = el.scrollHeight;
  }, [lines]);
  return (
    <section className="card log" aria-labelledby="log-title">
      <h2 id="log-title">
        Log <span className="badge">{label}</span>
      </h2>
      {lines.length === 0 && label !== 'no active checkpoint' && <p className="meta">No lines yet: the run has written nothing to its log.</p>}
      <pre ref={pre} id="log-lines" role="log" tabIndex={0} aria-label="run log">
        {lines.join('\n')}
      </pre>
    </section>
  );
}
