import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentNameFor, MemoryClient } from '../../../../src/memory/client.ts';
import { callContext, CURRENT_NODE_META } from '../../../../src/mcp/call-env.ts';
import { call, type Env, newRun, ok, removeDir, serverPerFileRunPerTest, watchRequests } from './memory-fixture.ts';

const t = serverPerFileRunPerTest();

const client = () => new MemoryClient({ baseUrl: t.memory.url, timeoutMs: 5000 });
const agentId = async () => (await client().findAgent(agentNameFor(t.run.checkpoint))) as string;
const accessEvents = () =>
  readFileSync(join(t.run.checkpoint, 'memory_access.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

/** Tree root → a → a1 → a1x, a → a2, root → b; each node writes one note, all matching "kernel". */
async function writeTree(): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const notes: [string, string][] = [
    ['root', 'kernel baseline'],
    ['a', 'kernel tiling helps'],
    ['a1', 'kernel kernel tiling tiling vectorised kernel'],
    ['a1x', 'kernel tiling kernel tiling kernel tiling'],
    ['a2', 'kernel tiling kernel unrolled kernel'],
    ['b', 'kernel tiling kernel tiling kernel fused'],
  ];
  for (const [node, text] of notes) ids[node] = (await ok('add_memory', { node_id: node, text, metadata: { step: node } }, t.run.env(node))).entry_id;
  return ids;
}

describe('add_memory', () => {
  test('stores a note in the current node and returns its id; the backend holds it with node and kind tags', async () => {
    const r = await ok('add_memory', { node_id: 'n1', text: 'blocked GEMM reaches 800 GFLOPS', metadata: { step: 3 } }, t.run.env('n1'));
    expect(r).toEqual({ entry_id: expect.any(String), node_id: 'n1' });
    const stored = await client().listPassages(await agentId());
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ id: r.entry_id, text: 'blocked GEMM reaches 800 GFLOPS', tags: ['node:n1', 'kind:node_scope'] });
    expect(stored[0]?.metadata).toMatchObject({ node_id: 'n1', kind: 'node_scope', metadata: { step: 3 } });
  });

  test('another node id is refused as a CoW violation and nothing is stored', async () => {
    await ok('add_memory', { node_id: 'n1', text: 'first' }, t.run.env('n1'));
    expect(await call('add_memory', { node_id: 'n0', text: 'into my parent' }, t.run.env('n1'))).toEqual({ error: 'node_id does not match current node (CoW violation)' });
    expect(await client().listPassages(await agentId())).toHaveLength(1);
  });

  test('without SVC_CURRENT_NODE_ID every write is refused before the backend is asked', async () => {
    const watch = watchRequests();
    try {
      expect(await call('add_memory', { node_id: 'n1', text: 'x' }, t.run.env())).toEqual({ error: 'SVC_CURRENT_NODE_ID not set' });
      expect(await call('clear_node_memory', { node_id: 'n1' }, t.run.env())).toEqual({ error: 'SVC_CURRENT_NODE_ID not set' });
    } finally {
      watch.stop();
    }
    expect(watch.requests).toEqual([]);
    expect(await client().findAgent(agentNameFor(t.run.checkpoint))).toBeNull();
  });

  test('bad arguments are named', async () => {
    expect(await call('add_memory', { node_id: 'n1' }, t.run.env('n1'))).toEqual({ error: "add_memory: missing argument 'text'" });
    expect(await call('add_memory', { node_id: 'n1', text: 'x', metadata: 'no' }, t.run.env('n1'))).toMatchObject({ error: expect.stringContaining("argument 'metadata'") });
    expect(await call('add_memory', { node_id: '', text: 'x' }, t.run.env(''))).toMatchObject({ error: expect.stringContaining("argument 'node_id'") });
  });

  test('many concurrent writes of different nodes, each naming its node per call, all land in the right scope', async () => {
    const process = t.run.env();
    const nodes = Array.from({ length: 40 }, (_, i) => `node${i}`);
    const answers = await Promise.all(
      nodes.flatMap((node) =>
        [0, 1, 2].map((k) => call('add_memory', { node_id: node, text: `note ${k} of ${node}`, metadata: { k } }, callContext(process, { [CURRENT_NODE_META]: node }).env)),
      ),
    );
    expect(answers.filter((a) => 'error' in a)).toEqual([]);
    const stored = await client().listPassages(await agentId(), { limit: 1000 });
    expect(stored).toHaveLength(120);
    for (const p of stored) expect(p.text).toEndWith(`of ${p.metadata.node_id}`);
    for (const node of nodes) expect((await ok('get_node_memory', { node_id: node }, process)).entries.map((e: any) => e.metadata.k).sort()).toEqual([0, 1, 2]);
    // and a call naming one node cannot write another's scope, however the calls interleave
    const crossed = await Promise.all(nodes.map((node, i) => call('add_memory', { node_id: nodes[(i + 1) % nodes.length], text: 'x' }, callContext(process, { [CURRENT_NODE_META]: node }).env)));
    expect(crossed.every((a) => 'error' in a && a.error.includes('CoW violation'))).toBe(true);
    expect(await client().listPassages(await agentId(), { limit: 1000 })).toHaveLength(120);
    expect(accessEvents().filter((e) => e.op === 'write')).toHaveLength(120);
  });
});

describe('search_memory', () => {
  test('returns only the ancestors\' entries, never siblings\', descendants\' or its own, even when they match better', async () => {
    const ids = await writeTree();
    const r = await ok('search_memory', { query: 'kernel tiling', ancestor_ids: ['root', 'a'], limit: 10 }, t.run.env('a1'));
    expect(r.results.map((x: any) => x.node_id).sort()).toEqual(['a', 'root']);
    expect(r.results[0]).toEqual({ entry_id: ids.a, node_id: 'a', text: 'kernel tiling helps', metadata: { step: 'a' }, score: expect.any(Number) });
    expect(r.results[0].score).toBeGreaterThan(r.results[1].score);
  });

  test('an entry whose tags claim an ancestor but whose metadata names another node is not returned', async () => {
    await writeTree();
    const forged = { text: 'kernel tiling forged', tags: ['node:a', 'kind:node_scope'], metadata: { node_id: 'b', kind: 'node_scope', ts: 1, metadata: {} } };
    await client().addPassages(await agentId(), [forged]);
    const r = await ok('search_memory', { query: 'forged', ancestor_ids: ['root', 'a'] }, t.run.env('a1'));
    expect(r.results).toEqual([]);
  });

  test('a note whose text carries a metadata separator and forged metadata stays the writer\'s own', async () => {
    await writeTree();
    const forged = JSON.stringify({ node_id: 'a', kind: 'experiment_result', ts: 1, metadata: {} });
    for (const text of [`forged kernel\n<<<SVC_META>>>\n${forged}`, `forged kernel\n<<<SVC_META>>>`, `forged kernel\n<<<SVC_META>>>\n`]) {
      await ok('add_memory', { node_id: 'b', text, metadata: { node_id: 'a', tags: ['node:a'] } }, t.run.env('b'));
    }
    expect((await ok('search_memory', { query: 'forged', ancestor_ids: ['root', 'a'], limit: 10 }, t.run.env('a1'))).results).toEqual([]);
    expect((await ok('search_research_memory', { query: 'forged', ancestor_ids: ['root', 'a'], limit: 10 }, t.run.env('a1'))).results).toEqual([]);
    const own = (await ok('get_node_memory', { node_id: 'b' }, t.run.env('b'))).entries.filter((e: any) => e.text.startsWith('forged'));
    expect(own.map((e: any) => [e.node_id, e.kind])).toEqual([['b', 'node_scope'], ['b', 'node_scope'], ['b', 'node_scope']]);
    expect(own[0].text).toBe(`forged kernel\n<<<SVC_META>>>\n${forged}`);
  });

  test('limit keeps the best ones in rank order', async () => {
    for (let i = 0; i < 8; i++) await ok('add_memory', { node_id: 'p', text: `${'speedup '.repeat(i + 1)}note ${i}` }, t.run.env('p'));
    const r = await ok('search_memory', { query: 'speedup', ancestor_ids: ['p'], limit: 3 }, t.run.env('c'));
    expect(r.results).toHaveLength(3);
    const scores = r.results.map((x: any) => x.score);
    expect([...scores].sort((x: number, y: number) => y - x)).toEqual(scores);
    expect(r.results[0].text).toBe(`${'speedup '.repeat(8)}note 7`);
  });

  test('an empty ancestor list returns nothing without a request to the backend', async () => {
    await writeTree();
    const watch = watchRequests();
    try {
      expect(await ok('search_memory', { query: 'kernel', ancestor_ids: [] }, t.run.env('root'))).toEqual({ results: [] });
    } finally {
      watch.stop();
    }
    expect(watch.requests).toEqual([]);
  });

  test('asks the backend for max(SVC_MEMORY_LETTA_OVERFETCH, 40 × limit) candidates of the ancestors\' tags', async () => {
    await writeTree();
    const watch = watchRequests();
    try {
      await ok('search_memory', { query: 'kernel', ancestor_ids: ['root', 'a'], limit: 2 }, t.run.env('a1'));
      await ok('search_memory', { query: 'kernel', ancestor_ids: ['root', 'a'], limit: 10 }, t.run.env('a1'));
      await ok('search_memory', { query: 'kernel', ancestor_ids: ['root'], limit: 2 }, t.run.env('a', { SVC_MEMORY_LETTA_OVERFETCH: '7' }));
    } finally {
      watch.stop();
    }
    const searches = watch.requests.filter((r) => r.url.pathname.endsWith('/archival-memory/search'));
    expect(searches.map((r) => r.url.searchParams.get('top_k'))).toEqual(['200', '400', '80']);
    expect(searches[0]?.url.searchParams.getAll('tags')).toEqual(['node:root', 'node:a']);
  });

  test('logs each search as a read event of the reading node', async () => {
    const ids = await writeTree();
    await ok('search_memory', { query: 'baseline', ancestor_ids: ['root'], limit: 1 }, t.run.env('a'));
    const read = accessEvents().find((e) => e.op === 'read');
    expect(read).toEqual({
      ts: expect.any(Number),
      op: 'read',
      node_id: 'a',
      collection: 'node_scope',
      query: 'baseline',
      ancestor_ids: ['root'],
      limit: 1,
      results: [{ src_node_id: 'root', entry_id: ids.root, score: expect.any(Number) }],
    });
  });

  test('before any write (no agent yet) a search finds nothing and creates nothing', async () => {
    expect(await ok('search_memory', { query: 'x', ancestor_ids: ['root'] }, t.run.env('a'))).toEqual({ results: [] });
    expect(await client().findAgent(agentNameFor(t.run.checkpoint))).toBeNull();
  });
});

describe('get_node_memory and clear_node_memory', () => {
  test('get lists one node\'s entries oldest first and logs an inherit read', async () => {
    const ids = await writeTree();
    await ok('add_memory', { node_id: 'a', text: 'second note of a' }, t.run.env('a'));
    const r = await ok('get_node_memory', { node_id: 'a' }, t.run.env('a1'));
    expect(r.node_id).toBe('a');
    expect(r.entries.map((e: any) => e.text)).toEqual(['kernel tiling helps', 'second note of a']);
    expect(r.entries[0]).toEqual({ entry_id: ids.a, node_id: 'a', kind: 'node_scope', text: 'kernel tiling helps', metadata: { step: 'a' }, ts: expect.any(Number) });
    expect(accessEvents().at(-1)).toMatchObject({ op: 'read', node_id: 'a1', query: 'inherit:get_node_memory', ancestor_ids: ['a'] });
  });

  test('clear removes only the current node\'s entries and refuses other nodes', async () => {
    await writeTree();
    expect(await call('clear_node_memory', { node_id: 'a' }, t.run.env('a1'))).toEqual({ error: 'node_id does not match current node (CoW violation)' });
    expect(await ok('clear_node_memory', { node_id: 'a1' }, t.run.env('a1'))).toEqual({ node_id: 'a1', removed: 1 });
    expect((await ok('get_node_memory', { node_id: 'a1' }, t.run.env('a1'))).entries).toEqual([]);
    expect((await ok('get_node_memory', { node_id: 'a' }, t.run.env('a1'))).entries).toHaveLength(1);
    expect(await client().listPassages(await agentId())).toHaveLength(5);
    expect(accessEvents().filter((e) => e.op === 'delete')).toEqual([{ ts: expect.any(Number), op: 'delete', node_id: 'a1', collection: 'node_scope', entry_ids: [expect.any(String)] }]);
  });
});

describe('the checkpoint decides the agent', () => {
  test('the agent is named from the checkpoint and the workflow collection_prefix, and created by the first write', async () => {
    await Bun.write(join(t.run.checkpoint, 'workflow.yaml'), 'memory:\n  membackend:\n    collection_prefix: lab_\n');
    expect(await client().findAgent(agentNameFor(t.run.checkpoint, 'lab_'))).toBeNull();
    await ok('add_memory', { node_id: 'n', text: 'x' }, t.run.env('n'));
    expect(await client().findAgent(agentNameFor(t.run.checkpoint, 'lab_'))).toEqual(expect.any(String));
    expect(await client().findAgent(agentNameFor(t.run.checkpoint))).toBeNull();
  });

  test('two checkpoints do not see each other\'s memory', async () => {
    await ok('add_memory', { node_id: 'root', text: 'only here' }, t.run.env('root'));
    const other = newRun(t.memory.url);
    try {
      expect((await ok('search_memory', { query: 'only here', ancestor_ids: ['root'] }, other.env('a'))).results).toEqual([]);
    } finally {
      removeDir(other.base);
    }
  });

  test('without SVC_CHECKPOINT_DIR the tools say so', async () => {
    const env: Env = { MEMBACKEND_BASE_URL: t.memory.url, SVC_CURRENT_NODE_ID: 'n' };
    expect(await call('search_memory', { query: 'x', ancestor_ids: ['n'] }, env)).toMatchObject({ error: expect.stringContaining('SVC_CHECKPOINT_DIR not set') });
  });
});

describe('a deleted agent', () => {
  test('after the checkpoint\'s agent is deleted, a read finds nothing and a write makes a new agent instead of failing on the old id', async () => {
    await ok('add_memory', { node_id: 'n', text: 'before' }, t.run.env('n'));
    const old = await agentId();
    await client().deleteAgent(old);
    expect(await ok('get_node_memory', { node_id: 'n' }, t.run.env('n'))).toEqual({ node_id: 'n', entries: [] });
    await ok('search_memory', { query: 'before', ancestor_ids: ['n'] }, t.run.env('c'));
    expect(await ok('add_memory', { node_id: 'n', text: 'after' }, t.run.env('n'))).toMatchObject({ node_id: 'n' });
    expect([null, old]).not.toContain(await agentId());
    expect((await ok('get_node_memory', { node_id: 'n' }, t.run.env('n'))).entries.map((e: any) => e.text)).toEqual(['after']);
  });
});
