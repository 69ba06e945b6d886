// The dashboard page: run state, machine load, checkpoints and the live log of the active run.

type State = {
  status_label: string;
  checkpoint_id?: string;
  status?: string;
  phase?: string;
  nodes?: { total: number; completed: number; running: number; failed: number; pending: number };
  model?: { provider: string; model: string };
  cost?: { usd: number; tokens: number; calls: number };
  best?: { id: string; score: number; metric: string | null; value: number | null } | null;
};
type CheckpointEntry = { id?: unknown; status?: unknown; node_count?: unknown };
type Metrics = { cpu: { percent: number; cores: number }; memory: { percent: number; total_bytes: number }; disk: { percent: number; free_bytes: number } };
type Gpus = { available: boolean; gpus: { index: number; name: string; utilization_pct: number | null }[]; reason?: string };

/** lines kept in the log view; older ones scroll away */
const MAX_LOG_LINES = 2000;

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as T;
}

/**
 * With SVC_GUI_TOKEN set, the page is opened as /#token=<token>: the fragment never reaches a
 * server or a log. It is kept for the tab's session and sent with every API call.
 */
const token = (() => {
  const given = new URLSearchParams(location.hash.slice(1)).get('token');
  if (given) {
    sessionStorage.setItem('svc-token', given);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem('svc-token');
})();

async function getJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  const res = await fetch(path, { ...init, headers });
  const body = (await res.json().catch(() => null)) as (T & { error?: string }) | null;
  if (!res.ok) throw new Error(body?.error ?? `${path}: HTTP ${res.status}`);
  return body as T;
}

/** Fills a definition list; values are text, never markup. */
function facts(list: HTMLElement, rows: [string, string][]): void {
  list.replaceChildren(
    ...rows.flatMap(([k, v]) => {
      const dt = document.createElement('dt');
      dt.textContent = k;
      const dd = document.createElement('dd');
      dd.textContent = v;
      return [dt, dd];
    }),
  );
}

/** undefined until the first /state answer, so that the first one always opens the log */
let activeId: string | null | undefined;

async function refreshState(): Promise<void> {
  const s = await getJson<State>('/state');
  byId('status-label').textContent = s.status_label;
  const n = s.nodes;
  const best = s.best;
  facts(byId('run-facts'), [
    ['checkpoint', s.checkpoint_id ?? 'none selected'],
    ['status', s.status ?? '-'],
    ['phase', s.phase ?? '-'],
    ['nodes', n ? `${n.total} total, ${n.completed} completed, ${n.running} running, ${n.failed} failed, ${n.pending} pending` : '-'],
    ['model', s.model ? `${s.model.provider} / ${s.model.model}` : '-'],
    ['cost', s.cost ? `$${s.cost.usd.toFixed(4)}, ${s.cost.tokens} tokens, ${s.cost.calls} calls` : '-'],
    ['best node', best ? `${best.id} (score ${best.score}${best.metric ? `, ${best.metric} = ${best.value ?? '-'}` : ''})` : '-'],
  ]);
  const changed = (s.checkpoint_id ?? null) !== activeId;
  activeId = s.checkpoint_id ?? null;
  if (changed) {
    openLog();
    void refreshCheckpoints();
  }
}

async function refreshMachine(): Promise<void> {
  const [m, g] = await Promise.all([getJson<Metrics>('/api/resource-metrics'), getJson<Gpus>('/api/gpu-monitor')]);
  const gb = (b: number) => `${(b / 1024 ** 3).toFixed(1)} GB`;
  facts(byId('machine-facts'), [
    ['cpu', `${m.cpu.percent}% of ${m.cpu.cores} cores`],
    ['memory', `${m.memory.percent}% of ${gb(m.memory.total_bytes)}`],
    ['disk', `${m.disk.percent}% used, ${gb(m.disk.free_bytes)} free`],
    ['gpu', g.available ? g.gpus.map((x) => `#${x.index} ${x.name}: ${x.utilization_pct ?? '?'}%`).join('; ') || 'none' : (g.reason ?? 'unavailable')],
  ]);
}

async function refreshCheckpoints(): Promise<void> {
  const message = byId('checkpoints-message');
  let list: CheckpointEntry[];
  try {
    const body = await getJson<unknown>('/api/checkpoints');
    list = Array.isArray(body) ? (body as CheckpointEntry[]) : [];
    message.hidden = true;
  } catch (err) {
    message.textContent = (err as Error).message;
    message.hidden = false;
    return;
  }
  byId('checkpoint-rows').replaceChildren(...list.map(checkpointRow));
}

function checkpointRow(c: CheckpointEntry): HTMLTableRowElement {
  const id = String(c.id ?? '');
  const row = document.createElement('tr');
  if (id === activeId) row.className = 'active';
  for (const text of [id, String(c.status ?? '-'), String(c.node_count ?? '-')]) {
    const td = document.createElement('td');
    td.textContent = text;
    row.append(td);
  }
  const button = document.createElement('button');
  button.textContent = id === activeId ? 'active' : 'switch';
  button.disabled = id === activeId || id === '';
  button.addEventListener('click', () => void switchTo(id));
  const cell = document.createElement('td');
  cell.append(button);
  row.append(cell);
  return row;
}

async function switchTo(id: string): Promise<void> {
  const message = byId('checkpoints-message');
  try {
    await getJson('/api/switch-checkpoint', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id }) });
    message.hidden = true;
  } catch (err) {
    message.textContent = (err as Error).message;
    message.hidden = false;
  }
  await refreshState();
}

type HeldChange = { id: string; origin: string; method: string; path: string; keys: string[]; at: string };

/** Changes of where requests go that pages of other origins asked for: shown until answered here. */
async function refreshConfirmations(): Promise<void> {
  const { pending } = await getJson<{ pending: HeldChange[] }>('/api/confirmations');
  byId('confirmations').hidden = pending.length === 0;
  byId('confirmation-list').replaceChildren(...pending.map(confirmationItem));
}

function confirmationItem(c: HeldChange): HTMLLIElement {
  const item = document.createElement('li');
  item.append(`${c.origin} wants to set ${c.keys.join(', ')} (${c.method} ${c.path}, ${new Date(c.at).toLocaleTimeString()}) `);
  for (const [label, approve] of [['approve', true], ['reject', false]] as const) {
    const button = document.createElement('button');
    button.textContent = label;
    button.addEventListener('click', () => {
      const body = JSON.stringify({ approve });
      void getJson(`/api/confirmations/${encodeURIComponent(c.id)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .catch((err: unknown) => alert((err as Error).message))
        .finally(() => void refreshConfirmations());
    });
    item.append(button, ' ');
  }
  return item;
}

let log: EventSource | null = null;

/** (Re)opens the log stream of the active run; the stream ends by itself once the run has ended. */
function openLog(): void {
  log?.close();
  const lines = byId('log-lines');
  const state = byId('log-state');
  lines.replaceChildren();
  if (activeId === null) {
    state.textContent = 'no active checkpoint';
    return;
  }
  state.textContent = 'following';
  // EventSource cannot set headers: the token goes in the query, which the server keeps out of its log
  log = new EventSource(`/api/logs?stream=1${token ? `&token=${encodeURIComponent(token)}` : ''}`);
  log.onmessage = (e) => appendLine(lines, (JSON.parse(e.data) as { msg: string }).msg);
  log.addEventListener('done', (e) => {
    appendLine(lines, (JSON.parse((e as MessageEvent).data) as { msg: string }).msg);
    state.textContent = 'ended';
    log?.close();
  });
  log.onerror = () => {
    if (log?.readyState === EventSource.CLOSED) state.textContent = 'not available';
  };
}

function appendLine(pre: HTMLElement, msg: string): void {
  const atBottom = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
  pre.append(`${msg}\n`);
  while (pre.childNodes.length > MAX_LOG_LINES) pre.firstChild?.remove();
  if (atBottom) pre.scrollTop = pre.scrollHeight;
}

function every(ms: number, task: () => Promise<void>): void {
  const run = () =>
    task()
      .catch((err: unknown) => console.error(err))
      .finally(() => setTimeout(run, ms));
  run();
}

every(3000, refreshState);
every(5000, refreshMachine);
every(15000, refreshCheckpoints);
every(3000, refreshConfirmations);
