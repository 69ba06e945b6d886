import { Empty, ErrorMessage, Loading } from '../../components/states.tsx';
import { epochSeconds } from '../../format.ts';
import type { CheckpointMemory, MemoryAccess } from '../../types.ts';
import { useApi } from '../../use-api.ts';
import { checkpointApi } from '../../api.ts';

/** Newest access events shown. */
const ACCESS_LIMIT = 200;

/** The memory entries and access events of one node of `run` (every node when `node` is ''). */
export function MemoryOfNode({ run, node }: { run: string; node: string }) {
  const query = node ? `node_id=${encodeURIComponent(node)}` : '';
  const base = checkpointApi(run, '');
  const memory = useApi<CheckpointMemory>(`${base}/memory${query ? `?${query}` : ''}`);
  const access = useApi<MemoryAccess>(`${base}/memory_access?limit=${ACCESS_LIMIT}${query ? `&${query}` : ''}`);
  return (
    <div className="cards single">
      <section className="card" aria-labelledby="entries-title">
        <h2 id="entries-title">Entries</h2>
        {memory.error ? <ErrorMessage message={memory.error} retry={memory.reload} /> : !memory.data ? <Loading what="memory entries" /> : <Entries memory={memory.data} />}
      </section>
      <section className="card" aria-labelledby="access-title">
        <h2 id="access-title">Access log</h2>
        {access.error ? <ErrorMessage message={access.error} retry={access.reload} /> : !access.data ? <Loading what="the access log" /> : <Access log={access.data} />}
      </section>
    </div>
  );
}

function Entries({ memory }: { memory: CheckpointMemory }) {
  const { backend } = memory;
  return (
    <>
      <p className={backend.reachable ? 'meta' : 'notice error'}>
        {backend.reachable
          ? `Memory backend at ${backend.url}: answering${backend.agent_id ? '' : ', with no agent for this checkpoint'}.`
          : `Memory backend at ${backend.url} is not reachable${backend.error ? `: ${backend.error}` : ''}.${memory.source === null ? ' No backup file either.' : ''}`}
      </p>
      {/* where the entries come from is information, not a second error */}
      {memory.source !== null && memory.source !== 'backend' && <p className="meta">Entries from {memory.source}.</p>}
      {memory.problems.map((p) => (
        <p key={p} className="notice error">
          {p}
        </p>
      ))}
      {memory.entries.length === 0 ? (
        <Empty title="No entries">
          <p>Nothing was written to memory for this selection.</p>
        </Empty>
      ) : (
        <ol className="entries">
          {memory.entries.map((e, i) => (
            <li key={e.entry_id ?? i}>
              <div className="meta">{[e.kind, e.node_id, epochSeconds(e.ts)].filter(Boolean).join(' · ')}</div>
              <pre>{typeof e.text === 'string' ? e.text : JSON.stringify(e, null, 2)}</pre>
            </li>
          ))}
        </ol>
      )}
      {memory.truncated && <p className="meta">Only the first entries are shown.</p>}
    </>
  );
}

function Access({ log }: { log: MemoryAccess }) {
  if (log.events.length === 0)
    return (
      <Empty title="No access recorded">
        <p>The memory skill records each read and write in memory_access.jsonl as the run goes.</p>
      </Empty>
    );
  return (
    <table className="access">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Operation</th>
          <th scope="col">Node</th>
          <th scope="col">Entry</th>
        </tr>
      </thead>
      <tbody>
        {log.events.map((e, i) => (
          <tr key={i}>
            <td>{epochSeconds(e.ts)}</td>
            <td>{e.op ?? '–'}</td>
            <td>{e.node_id ?? '–'}</td>
            <td>{e.entry_id ?? '–'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
