import type { Database } from 'bun:sqlite';
import { passageBody } from './passage-text.ts';
import { fold } from './store-rank.ts';
import { float32Values, packVector } from './store-vectors.ts';

/**
 * Tables of the memory store. Integer `seq` keys keep joins and the full-text index compact; the
 * public ids (`agent-<uuid>`, `passage-<uuid>`) are unique columns beside them.
 *
 * passages_fts indexes two columns per passage: `body`, the text before the metadata separator
 * (what search ranks), and `scope`, one token per owner and tag (`a<agent seq>`, `t<tag seq>`), so a
 * search restricted to a few tags intersects the small doclists of those tokens inside FTS5 instead
 * of ranking every match of the whole agent. The index is contentless: the text lives in passages.
 *
 * passage_search holds what a search ranks a passage by: its folded body (store-rank.ts fold) and
 * its vector with the model that made it (quantized, store-vectors.ts; none until one is set). Its
 * rows are ordered by the passage's home, its first tag (0 without tags), so the candidates of a
 * search scoped to a few tags that are their passages' first tags, as a node's tag is for the
 * research memory, are one range per tag instead of a seek per passage: measured at 100,000
 * passages and a thousand candidates, 0.8 ms against 2.6 ms. Passages whose home is another tag are
 * found through passage_search_by_passage.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS agents (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL UNIQUE, tags TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS passages (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, agent_id TEXT NOT NULL, text TEXT NOT NULL, tags TEXT NOT NULL, created_at TEXT NOT NULL);
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
CREATE TABLE IF NOT EXISTS passage_search (
  home INTEGER NOT NULL, passage_seq INTEGER NOT NULL, folded TEXT NOT NULL, model TEXT, vector BLOB, PRIMARY KEY (home, passage_seq)) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS passage_search_by_passage ON passage_search (passage_seq);
`;

/**
 * Version 2 added agent_embeddings (the embedding model an agent was created with) and
 * passage_vectors (a vector per passage with its model); version 3 added passages.folded. Version 4
 * moved both into passage_search. An older database migrates in place when opened (the first
 * schema left user_version at 0): passage_search is filled from passages.folded (folding the text
 * of rows from before it) and passage_vectors, which are then dropped. Passages without a vector
 * get one lazily at search time or by `svc memory reindex`.
 */
export const SCHEMA_VERSION = 4;

/**
 * WAL with synchronous=FULL: every commit is fsynced before the request is answered, so an
 * acknowledged write survives a killed server and also a crash of the machine. (WAL with NORMAL
 * would survive a killed process too, since the WAL frames are written before the commit returns,
 * but could lose the last commits on power loss.) Batched adds pay one fsync per batch; single
 * adds run at hundreds per second instead of about a thousand and a half with NORMAL.
 */
export function prepareDatabase(db: Database): void {
  // a new database only (an existing one keeps its page size): a row of passage_search (a clustered
  // index) stays in its page up to a quarter of it, and a folded body with a 768-dimension vector
  // is over the 1 KB of a 4 KB page; spilled rows took 2.3 times the space (measured: 215 against
  // 498 MB at 100,000 passages) and slowed each search
  db.run('PRAGMA page_size = 16384');
  db.run('PRAGMA journal_mode = WAL');
  db.run('PRAGMA synchronous = FULL');
  db.run('PRAGMA busy_timeout = 5000');
  // reads of scattered candidate rows come straight from the OS page cache, without a copy per page
  db.run('PRAGMA mmap_size = 1073741824');
  const found = db.query<{ user_version: number }, []>('PRAGMA user_version').get()?.user_version ?? 0;
  if (found > SCHEMA_VERSION) throw new Error(`its schema is version ${found}, newer than this svc reads (${SCHEMA_VERSION}): upgrade svc`);
  db.transaction(() => {
    const migrating = found < SCHEMA_VERSION && tableExists(db, 'passages');
    db.run(SCHEMA);
    if (migrating) fillPassageSearch(db);
    db.run(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

const tableExists = (db: Database, name: string): boolean => db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== null;

/** Schemas 0 to 3 to 4, inside the opening transaction: every passage gets its row of passage_search. */
function fillPassageSearch(db: Database): void {
  const hasFolded = db.query<{ n: number }, []>("SELECT count(*) AS n FROM pragma_table_info('passages') WHERE name = 'folded'").get()?.n === 1;
  const hasVectors = tableExists(db, 'passage_vectors');
  const home = "coalesce((SELECT n.seq FROM tag_names n WHERE n.agent_id = p.agent_id AND n.tag = json_extract(p.tags, '$[0]')), 0)";
  const [vectorColumns, join] = hasVectors ? ['v.model, v.vector', ' LEFT JOIN passage_vectors v ON v.passage_seq = p.seq'] : ['NULL AS model, NULL AS vector', ''];
  const rows = db.query<{ home: number; seq: number; folded: string | null; text: string; model: string | null; vector: Uint8Array | null }, []>(
    `SELECT ${home} AS home, p.seq, ${hasFolded ? 'p.folded' : 'NULL AS folded'}, p.text, ${vectorColumns} FROM passages p${join}`,
  );
  // schema 2 kept vectors as Float32 values; from 3 on they are quantized
  const float32 = hasVectors && !hasFolded;
  const insert = db.query('INSERT OR IGNORE INTO passage_search (home, passage_seq, folded, model, vector) VALUES (?, ?, ?, ?, ?)');
  for (const r of rows.iterate()) {
    const values = float32 && r.vector ? float32Values(r.vector) : null;
    const vector = float32 ? values && packVector(values) : r.vector;
    insert.run(r.home, r.seq, r.folded ?? fold(passageBody(r.text)), vector && r.model, vector);
  }
  if (hasVectors) db.run('DROP TABLE passage_vectors');
  if (hasFolded) db.run('ALTER TABLE passages DROP COLUMN folded');
}
