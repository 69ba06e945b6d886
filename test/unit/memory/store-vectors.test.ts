import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../src/core/errors.ts';
import { DATABASE_FILE, MemoryStore } from '../../../src/memory/store.ts';
import { SCHEMA_VERSION } from '../../../src/memory/store-schema.ts';
import { fuseRanks, nearest, packVector, RRF_K, unpackVector } from '../../../src/memory/store-vectors.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir('svc-memvec-store-');
});
afterEach(() => removeDir(dir));

/** Runs `check` on the store of the test's directory, closing it after. */
function withStore(check: (store: MemoryStore) => void): void {
  const store = MemoryStore.open(dir);
  try {
    check(store);
  } finally {
    store.close();
  }
}

describe('vectors', () => {
  test('are stored at unit length, a byte a dimension', () => {
    const v = unpackVector(packVector([3, 4]));
    expect(v[0]).toBeCloseTo(0.6, 2);
    expect(v[1]).toBeCloseTo(0.8, 2);
    // one byte a dimension after the scale; packing what is unpacked gives the same bytes
    expect(packVector([3, 4]).byteLength).toBe(4 + 2);
    expect(packVector([...v])).toEqual(packVector([3, 4]));
    expect([...unpackVector(packVector([0, 0]))]).toEqual([0, 0]);
  });

  test('nearest: by cosine, best first, only those pointing the same way and of the query\'s length', () => {
    const rows = [
      { seq: 1, vector: packVector([1, 0]) },
      { seq: 2, vector: packVector([1, 1]) },
      { seq: 3, vector: packVector([-1, 0]) },
      { seq: 4, vector: packVector([0, 1]) },
      { seq: 5, vector: packVector([1, 0, 0]) },
    ];
    expect(nearest(rows, unpackVector(packVector([1, 0.1])), 10).map((r) => r.seq)).toEqual([1, 2, 4]);
    expect(nearest(rows, unpackVector(packVector([1, 0.1])), 1).map((r) => r.seq)).toEqual([1]);
  });

  test('reciprocal-rank fusion: a passage both lists rank first wins; one list alone still counts', () => {
    const fused = fuseRanks([
      [10, 20, 30],
      [20, 40],
    ]);
    expect(fused.map((r) => r.seq)).toEqual([20, 10, 40, 30]);
    expect(fused[0]?.score).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 1), 12);
  });
});

describe('the store', () => {
  test('a scope too large to rank in process (FTS5 and the tag index) still never returns a sibling, even as the nearest vector and the best match', () => {
    withStore((store) => {
      const agent = store.createAgent('big', [], [], 'm1')?.id ?? '';
      // over RANK_IN_PROCESS (4,000) passages on the ancestors' tags, so the search goes through FTS5
      const ancestors = store.addPassages(agent, Array.from({ length: 4200 }, (_, i) => ({ text: `note ${i} about cache tiling`, tags: [i % 2 ? 'node:root' : 'node:parent', 'kind:x'] })));
      const [sibling] = store.addPassages(agent, [{ text: 'kernel kernel kernel launch', tags: ['node:sibling', 'kind:x'] }]);
      const [mine] = store.addPassages(agent, [{ text: 'kernel launch', tags: ['node:parent', 'kind:x'] }]);
      store.setVectors([...ancestors.map((p) => ({ id: p.id, model: 'm1', vector: [0, 1] })), { id: sibling?.id ?? '', model: 'm1', vector: [1, 0] }, { id: mine?.id ?? '', model: 'm1', vector: [0.9, 0.1] }]);
      for (const match of ['any', 'all'] as const) {
        const tags = match === 'any' ? ['node:root', 'node:parent'] : ['node:parent', 'kind:x'];
        const found = store.searchPassages(agent, { query: 'kernel launch', tags, match, topK: 200, near: { model: 'm1', vector: [1, 0] } });
        expect(found.length).toBeGreaterThan(0);
        expect(found[0]?.id).toBe(mine?.id);
        expect(found.some((p) => p.id === sibling?.id)).toBe(false);
      }
    });
  });

  test("a search of the whole agent ranks every vector of its passages, tagged or not, and no other agent's", () => {
    withStore((store) => {
      const agent = store.createAgent('whole', [], [], 'm1')?.id ?? '';
      const stranger = store.createAgent('stranger', [], [], 'm1')?.id ?? '';
      const [tagged, untagged, otherModel] = store.addPassages(agent, [
        { text: 'alpha', tags: ['node:x', 'kind:k'] },
        { text: 'beta', tags: [] },
        { text: 'gamma', tags: ['node:y'] },
      ]);
      const [theirs] = store.addPassages(stranger, [{ text: 'delta', tags: ['node:x'] }]);
      store.setVectors([
        { id: tagged?.id ?? '', model: 'm1', vector: [1, 0] },
        { id: untagged?.id ?? '', model: 'm1', vector: [0.8, 0.2] },
        { id: otherModel?.id ?? '', model: 'm2', vector: [1, 0] },
        { id: theirs?.id ?? '', model: 'm1', vector: [1, 0] },
      ]);
      // no word of the query in any passage: the vectors alone rank
      const found = store.search(agent, { query: 'zeta', tags: [], match: 'any', topK: 10, near: { model: 'm1', vector: [1, 0] } });
      expect(found.results.map((p) => p.text)).toEqual(['alpha', 'beta']);
    });
  });

  test('hybrid search ranks within the scope; deleting a passage or agent deletes its vectors', () => {
    withStore((store) => {
      const agent = store.createAgent('a', [], [], 'm1')?.id ?? '';
      expect(store.agentEmbedding(agent)).toBe('m1');
      const [near, far, other] = store.addPassages(agent, [
        { text: 'alpha', tags: ['node:x'] },
        { text: 'beta gamma', tags: ['node:x'] },
        { text: 'alpha alpha', tags: ['node:y'] },
      ]);
      store.setVectors([
        { id: near?.id ?? '', model: 'm1', vector: [1, 0] },
        { id: far?.id ?? '', model: 'm1', vector: [0.9, 0.1] },
        { id: other?.id ?? '', model: 'm1', vector: [1, 0] },
      ]);
      const found = store.searchPassages(agent, { query: 'gamma', tags: ['node:x'], match: 'any', topK: 10, near: { model: 'm1', vector: [0.95, 0.05] } });
      // 'beta gamma' is first by both lists; 'alpha' only by its vector; node:y never
      expect(found.map((p) => p.text)).toEqual(['beta gamma', 'alpha']);
      // another model's vectors do not count
      expect(store.searchPassages(agent, { query: 'gamma', tags: ['node:x'], match: 'any', topK: 10, near: { model: 'm2', vector: [1, 0] } }).map((p) => p.text)).toEqual(['beta gamma']);
      expect(store.withoutVectors(agent, { tags: [], match: 'any' }, 'm2', 10).length).toBe(3);
      expect(store.countWithoutVectors(agent, 'm1')).toBe(0);
      store.deletePassage(agent, near?.id ?? '');
      expect(store.vectorsOf([near?.id ?? '', far?.id ?? '']).size).toBe(1);
      store.deleteAgent(agent);
      const db = new Database(join(dir, DATABASE_FILE), { readonly: true });
      expect(db.query('SELECT count(*) AS n FROM passage_search').get()).toEqual({ n: 0 });
      expect(db.query('SELECT count(*) AS n FROM agent_embeddings').get()).toEqual({ n: 0 });
      db.close();
    });
  });
});

/** The schema svc wrote before vectors (user_version left at 0). */
const FIRST_SCHEMA = `
CREATE TABLE agents (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL UNIQUE, tags TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE passages (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, agent_id TEXT NOT NULL, text TEXT NOT NULL, tags TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE INDEX passages_by_agent ON passages (agent_id, seq);
CREATE TABLE tag_names (seq INTEGER PRIMARY KEY, agent_id TEXT NOT NULL, tag TEXT NOT NULL, UNIQUE (agent_id, tag));
CREATE TABLE tags (tag_seq INTEGER NOT NULL, passage_seq INTEGER NOT NULL, PRIMARY KEY (tag_seq, passage_seq)) WITHOUT ROWID;
CREATE INDEX tags_by_passage ON tags (passage_seq);
CREATE VIRTUAL TABLE passages_fts USING fts5 (body, scope, content = '', contentless_delete = 1);
CREATE TABLE blocks (agent_id TEXT NOT NULL, label TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (agent_id, label)) WITHOUT ROWID;
INSERT INTO agents VALUES (1, 'agent-1', 'old', '[]', '2026-01-01T00:00:00Z');
INSERT INTO passages VALUES (1, 'passage-1', 'agent-1', 'OOM in the CUDA launch', '["node:n"]', '2026-01-01T00:00:00Z');
INSERT INTO tag_names VALUES (1, 'agent-1', 'node:n');
INSERT INTO tags VALUES (1, 1);
INSERT INTO passages_fts (rowid, body, scope) VALUES (1, 'OOM in the CUDA launch', 'a1 t1');
`;

describe('migration', () => {
  test('a database of the first schema opens in place: its passages are kept and searchable, and can take vectors', () => {
    const old = new Database(join(dir, DATABASE_FILE), { create: true });
    old.run(FIRST_SCHEMA);
    old.close();
    withStore((store) => {
      expect(store.searchPassages('agent-1', { query: 'cuda', tags: ['node:n'], match: 'any', topK: 5 }).map((p) => p.id)).toEqual(['passage-1']);
      expect(store.withoutVectors('agent-1', { tags: ['node:n'], match: 'any' }, 'm', 10)).toEqual([{ id: 'passage-1', text: 'OOM in the CUDA launch' }]);
      store.setVectors([{ id: 'passage-1', model: 'm', vector: [1, 2] }]);
      expect(store.countWithoutVectors('agent-1', 'm')).toBe(0);
      // a row from before folded bodies were stored is folded as it is read; a new row has its own
      store.addPassages('agent-1', [{ text: 'Kernel ran OUT of shared memory', tags: ['node:n'] }]);
      expect(store.searchPassages('agent-1', { query: 'launch kernel', tags: ['node:n'], match: 'any', topK: 5 }).map((p) => p.text)).toEqual(['OOM in the CUDA launch', 'Kernel ran OUT of shared memory']);
    });
    const db = new Database(join(dir, DATABASE_FILE), { readonly: true });
    expect(db.query('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    // the old row was folded as the database was opened, under its first tag
    expect(db.query('SELECT home, passage_seq, folded, model FROM passage_search ORDER BY passage_seq').all()).toEqual([
      { home: 1, passage_seq: 1, folded: 'oom in the cuda launch', model: 'm' },
      { home: 1, passage_seq: 2, folded: 'kernel ran out of shared memory', model: null },
    ]);
    db.close();
  });

  test('a database of schema 3 opens in place: folded bodies and vectors move to passage_search, and searches rank as before', () => {
    const old = new Database(join(dir, DATABASE_FILE), { create: true });
    old.run(FIRST_SCHEMA);
    old.run(`ALTER TABLE passages ADD COLUMN folded TEXT;
CREATE TABLE agent_embeddings (agent_id TEXT PRIMARY KEY, handle TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE passage_vectors (passage_seq INTEGER PRIMARY KEY, model TEXT NOT NULL, vector BLOB NOT NULL);
INSERT INTO passages VALUES (2, 'passage-2', 'agent-1', 'Kernel ran OUT of shared memory', '["node:n","kind:x"]', '2026-01-01T00:00:00Z', 'kernel ran out of shared memory');
INSERT INTO passages VALUES (3, 'passage-3', 'agent-1', 'learning rate warmup', '["node:m"]', '2026-01-01T00:00:00Z', 'learning rate warmup');
INSERT INTO passages VALUES (4, 'passage-4', 'agent-1', 'no tags at all', '[]', '2026-01-01T00:00:00Z', 'no tags at all');
INSERT INTO tag_names VALUES (2, 'agent-1', 'kind:x'), (3, 'agent-1', 'node:m');
INSERT INTO tags VALUES (1, 2), (2, 2), (3, 3);
INSERT INTO passages_fts (rowid, body, scope) VALUES (2, 'Kernel ran OUT of shared memory', 'a1 t1 t2'), (3, 'learning rate warmup', 'a1 t3');
PRAGMA user_version = 3;`);
    const insertVector = old.query('INSERT INTO passage_vectors VALUES (?, ?, ?)');
    insertVector.run(1, 'm', packVector([1, 0]));
    insertVector.run(2, 'm', packVector([0, 1]));
    insertVector.run(3, 'other', packVector([1, 0]));
    old.close();
    withStore((store) => {
      // passage 1 (no folded body in schema 3) first by its words, passage 2 first by its vector: a tie, the newer first; node:m's never
      const near = { model: 'm', vector: [0, 1] };
      expect(store.searchPassages('agent-1', { query: 'cuda', tags: ['node:n'], match: 'any', topK: 5, near }).map((p) => p.id)).toEqual(['passage-2', 'passage-1']);
      expect(store.searchPassages('agent-1', { query: 'memory', tags: ['node:n', 'kind:x'], match: 'all', topK: 5, near }).map((p) => p.id)).toEqual(['passage-2']);
      // by a tag that is not its first: found through the tag index
      expect(store.searchPassages('agent-1', { query: 'kernel', tags: ['kind:x'], match: 'any', topK: 5, near }).map((p) => p.id)).toEqual(['passage-2']);
      expect(store.searchPassages('agent-1', { query: 'kernel', tags: ['kind:x', 'node:m'], match: 'any', topK: 5 }).map((p) => p.id)).toEqual(['passage-2']);
      expect(store.search('agent-1', { query: 'warmup', tags: ['node:m'], match: 'any', topK: 5, near }).unvectored).toBe(1);
    });
    const db = new Database(join(dir, DATABASE_FILE), { readonly: true });
    expect(db.query('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    expect(db.query("SELECT count(*) AS n FROM pragma_table_info('passages') WHERE name = 'folded'").get()).toEqual({ n: 0 });
    expect(db.query("SELECT count(*) AS n FROM sqlite_master WHERE name = 'passage_vectors'").get()).toEqual({ n: 0 });
    // each passage once, under its first tag (0: none), with its vector; passage 1's text folded as it moved
    expect(db.query('SELECT home, passage_seq, folded, model FROM passage_search ORDER BY passage_seq').all()).toEqual([
      { home: 1, passage_seq: 1, folded: 'oom in the cuda launch', model: 'm' },
      { home: 1, passage_seq: 2, folded: 'kernel ran out of shared memory', model: 'm' },
      { home: 3, passage_seq: 3, folded: 'learning rate warmup', model: 'other' },
      { home: 0, passage_seq: 4, folded: 'no tags at all', model: null },
    ]);
    expect(db.query('SELECT vector FROM passage_search WHERE passage_seq = 2').get()).toEqual({ vector: packVector([0, 1]) });
    db.close();
  });

  test('a database of schema 2 opens in place: its Float32 vectors are quantized as they move, and rank as before', () => {
    const old = new Database(join(dir, DATABASE_FILE), { create: true });
    old.run(FIRST_SCHEMA);
    old.run(`CREATE TABLE agent_embeddings (agent_id TEXT PRIMARY KEY, handle TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE passage_vectors (passage_seq INTEGER PRIMARY KEY, model TEXT NOT NULL, vector BLOB NOT NULL);
INSERT INTO passages VALUES (2, 'passage-2', 'agent-1', 'sorting with fewer comparisons', '["node:n"]', '2026-01-01T00:00:00Z');
INSERT INTO tags VALUES (1, 2);
INSERT INTO passages_fts (rowid, body, scope) VALUES (2, 'sorting with fewer comparisons', 'a1 t1');
PRAGMA user_version = 2;`);
    const float32 = (v: number[]) => new Uint8Array(new Float32Array(v).buffer);
    old.query('INSERT INTO passage_vectors VALUES (?, ?, ?)').run(1, 'm', float32([0.6, 0.8, 0]));
    old.query('INSERT INTO passage_vectors VALUES (?, ?, ?)').run(2, 'm', float32([0, 0, 1]));
    old.close();
    withStore((store) => {
      // no word of the query in either: the vectors alone rank, as they would have
      const found = store.search('agent-1', { query: 'zeta', tags: ['node:n'], match: 'any', topK: 5, near: { model: 'm', vector: [0, 0, 1] } });
      expect(found.results.map((p) => p.id)).toEqual(['passage-2']);
      expect(found.unvectored).toBe(0);
    });
    const db = new Database(join(dir, DATABASE_FILE), { readonly: true });
    expect(db.query('SELECT vector FROM passage_search WHERE passage_seq = 1').get()).toEqual({ vector: packVector([0.6, 0.8, 0]) });
    db.close();
  });

  test('a new database has 16 KB pages, so a passage and its vector stay in one; an older one keeps its own', () => {
    MemoryStore.open(dir).close();
    const fresh = new Database(join(dir, DATABASE_FILE), { readonly: true });
    expect(fresh.query('PRAGMA page_size').get()).toEqual({ page_size: 16384 });
    fresh.close();
    const olderDir = join(dir, 'older');
    mkdirSync(olderDir);
    const old = new Database(join(olderDir, DATABASE_FILE), { create: true });
    old.run(FIRST_SCHEMA);
    old.close();
    MemoryStore.open(olderDir).close();
    const older = new Database(join(olderDir, DATABASE_FILE), { readonly: true });
    expect(older.query('PRAGMA page_size').get()).toEqual({ page_size: 4096 });
    expect(older.query('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    older.close();
  });

  test('a database of a newer schema is refused, naming the file, and left as it was', () => {
    const newer = new Database(join(dir, DATABASE_FILE), { create: true });
    newer.run(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    newer.close();
    expect(() => MemoryStore.open(dir)).toThrow(InputError);
    expect(() => MemoryStore.open(dir)).toThrow(`schema is version ${SCHEMA_VERSION + 1}, newer than this svc reads (${SCHEMA_VERSION}): upgrade svc`);
    const db = new Database(join(dir, DATABASE_FILE), { readonly: true });
    expect(db.query('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION + 1 });
    expect(db.query("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get()).toEqual({ n: 0 });
    db.close();
  });
});
