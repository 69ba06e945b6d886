// @ts-check
// The memory inspector: lists the memory entries of one node (/memory/<node_id>) of the active checkpoint.

/** @param {string} id */
function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el;
}

/**
 * @param {string} path
 * @returns {Promise<any>}
 */
async function getJson(path) {
  // the dashboard page keeps SVC_GUI_TOKEN for the tab's session (see app.ts)
  const token = sessionStorage.getItem('svc-token');
  const res = await fetch(path, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(body?.error ?? `${path}: HTTP ${res.status}`);
  return body;
}

/**
 * The entries of a memory answer, whichever of the usual shapes it has: a list, or a list under
 * entries, memories, results or items.
 * @param {any} body
 * @returns {any[]}
 */
function entriesOf(body) {
  if (Array.isArray(body)) return body;
  for (const key of ['entries', 'memories', 'results', 'items']) if (Array.isArray(body?.[key])) return body[key];
  return [];
}

/** @param {any} entry */
function entryItem(entry) {
  const li = document.createElement('li');
  const meta = document.createElement('div');
  meta.className = 'meta';
  const parts = ['entry_id', 'node_id', 'kind', 'ts', 'score'].filter((k) => entry?.[k] !== undefined && entry?.[k] !== null).map((k) => `${k}: ${entry[k]}`);
  meta.textContent = parts.join('  ·  ');
  const text = document.createElement('pre');
  const body = entry?.text ?? entry?.content ?? entry?.memory;
  text.textContent = typeof body === 'string' ? body : JSON.stringify(entry, null, 2);
  li.append(meta, text);
  return li;
}

async function main() {
  const nodeId = decodeURIComponent(location.pathname.replace(/^\/memory\/?/, ''));
  byId('node').textContent = nodeId || '(no node given)';
  const message = byId('message');
  try {
    const state = await getJson('/state');
    if (!state.checkpoint_id) throw new Error('no active checkpoint: select one on the dashboard');
    byId('checkpoint').textContent = `checkpoint ${state.checkpoint_id}`;
    const query = new URLSearchParams({ node_id: nodeId });
    const body = await getJson(`/api/checkpoint/${encodeURIComponent(state.checkpoint_id)}/memory?${query}`);
    const entries = entriesOf(body);
    byId('count').textContent = `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}`;
    byId('entries').replaceChildren(...entries.map(entryItem));
  } catch (err) {
    message.textContent = err instanceof Error ? err.message : String(err);
    message.hidden = false;
  }
}

void main();

// a module: its names stay out of the page's global scope
export {};
