import type { Database } from 'bun:sqlite';

/**
 * Tables of the memory store. Integer `seq` keys keep joins and the full-text index compact; the
 * public ids (`agent-<uuid>`, `passage-<uuid>`) are unique columns beside them.
 *
 * passages_fts indexes two columns per passage: `body`, the text before the metadata separator
 * (what search ranks), and `scope`, one token per owner and tag (`a<agent seq>`, `t<tag seq>`), so a
 * search restricted to a few tags intersects the small doclists of those tokens inside FTS5 instead
 * of ranking every match of the whole agent. The index is contentless: the text lives in passages.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS agents (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL UNIQUE, tags TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS passages (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, agent_id TEXT NOT NULL, text TEXT NOT NULL, tags TEXT NOT NULL, created_at TEXT NOT NULL, folded TEXT);
CREATE INDEX IF NOT EXISTS passages_by_agent ON passages (agent_id, seq);
CREATE TABLE IF NOT EXISTS tag_names (
  seq INTEGER PRIMARY KEY, agent_id TEXT NOT NULL, tag TEXT NOT NULL, UNIQUE (agent_id, tag));
CREATE TABLE IF NOT EXISTS tags (
  tag_seq INTEGER NOT NULL, passage_seq INTEGER NOT NULL, PRIMARY KEY (tag_seq, passage_seq)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tags_by_passage ON tags (passage_seq);
CREATE VIRTUAL TABLE IF NOT EXISTS passages_fts USING fts5 (body, scope, content = '', contentless_delete = 1);
CREATE TABLE IF NOT EXISTS blocks (
  agent_id TEXT NOT NULL, label TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (agent_id, label)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS agent_embeddings (agent_id TEXT PRIMARY KEY, handle TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS passage_vectors (passage_seq INTEGER PRIMARY KEY, model TEXT NOT NULL, vector BLOB NOT NULL);
`;

/**
 * Version 2 added agent_embeddings (the embedding model an agent was created with) and
 * passage_vectors (one unit-length vector per passage, quantized (store-vectors.ts), with the model that made it: a
 * vector of another model is stale). Both are new tables, so a database of the first schema (which
 * left user_version at 0) migrates in place when opened; its passages get vectors lazily at search time or by `svc memory reindex`.
 * Version 3 added passages.folded, the body as search ranks it (store-rank.ts fold), written with
 * the passage so a search does not fold a thousand texts again; rows from before have none and
 * are folded when read.
 */
export const SCHEMA_VERSION = 3;

/**
 * WAL with synchronous=FULL: every commit is fsynced before the request is answered, so an
 * acknowledged write survives a killed server and also a crash of the machine. (WAL with NORMAL
 * would survive a killed process too, since the WAL frames are written before the commit returns,
 * but could lose the last commits on power loss.) Batched adds pay one fsync per batch; single
 * adds run at hundreds per second instead of about a thousand and a half with NORMAL.
 */
export function prepareDatabase(db: Database): void {
  db.run('PRAGMA journal_mode = WAL');
  db.run('PRAGMA synchronous = FULL');
  db.run('PRAGMA busy_timeout = 5000');
  // reads of scattered candidate rows come straight from the OS page cache, without a copy per page
  db.run('PRAGMA mmap_size = 1073741824');
  const found = db.query<{ user_version: number }, []>('PRAGMA user_version').get()?.user_version ?? 0;
  if (found > SCHEMA_VERSION) throw new Error(`its schema is version ${found}, newer than this svc reads (${SCHEMA_VERSION}): upgrade svc`);
  db.transaction(() => {
    db.run(SCHEMA);
    const columns = db.query<{ name: string }, []>('PRAGMA table_info(passages)').all();
    if (!columns.some((c) => c.name === 'folded')) db.run('ALTER TABLE passages ADD COLUMN folded TEXT');
    db.run(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}
