import { Database } from 'bun:sqlite';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { InputError, NotFoundError } from '../core/errors.ts';

export const TOKENS_DB = 'tokens.db';
export const TOKEN_PREFIX = 'svc_';

/** A token as listed: never the token itself, which is stored only as its SHA-256. */
export type TokenRecord = { id: string; user: string; created_at: string; revoked_at: string | null };

/** What a presented token turns out to be. */
export type TokenCheck = { ok: true; user: string; id: string } | { ok: false; reason: 'unknown' | 'revoked' };

const hashOf = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** User names: what a log line and a meta.json can hold without quoting. */
export const isUserName = (s: string): boolean => /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/.test(s);

/** The registry's bearer tokens, in `tokens.db` of the data root (bun:sqlite). */
export class TokenStore {
  private readonly db: Database;

  constructor(root: string) {
    this.db = new Database(join(root, TOKENS_DB), { create: true, strict: true });
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000');
    this.db.exec('CREATE TABLE IF NOT EXISTS tokens (id TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, user TEXT NOT NULL, created_at TEXT NOT NULL, revoked_at TEXT)');
  }

  /** A new token for `user`: the plaintext is returned here once and never stored. */
  issue(user: string): { token: string; record: TokenRecord } {
    if (!isUserName(user)) throw new InputError(`invalid user name '${user}'`, 'letters, digits and . _ @ -, at most 64, starting with a letter or digit');
    const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const record: TokenRecord = { id: randomBytes(8).toString('hex'), user, created_at: new Date().toISOString(), revoked_at: null };
    this.db.query('INSERT INTO tokens (id, token_hash, user, created_at, revoked_at) VALUES ($id, $hash, $user, $created_at, NULL)').run({ id: record.id, hash: hashOf(token), user, created_at: record.created_at });
    return { token, record };
  }

  list(): TokenRecord[] {
    return this.db.query('SELECT id, user, created_at, revoked_at FROM tokens ORDER BY created_at, id').all() as TokenRecord[];
  }

  /** Revokes by token id; revoking twice keeps the first time. */
  revoke(id: string): TokenRecord {
    const row = this.db.query('SELECT id, user, created_at, revoked_at FROM tokens WHERE id = $id').get({ id }) as TokenRecord | null;
    if (!row) throw new NotFoundError(`no token with id '${id}'`, 'see svc registry token list');
    if (row.revoked_at === null) {
      row.revoked_at = new Date().toISOString();
      this.db.query('UPDATE tokens SET revoked_at = $at WHERE id = $id').run({ at: row.revoked_at, id });
    }
    return row;
  }

  /**
   * Who a presented token belongs to. The row is found by the token's hash; the stored hash is then
   * compared with the computed one in constant time, so no answer depends on how much of it matched.
   */
  check(token: string): TokenCheck {
    if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return { ok: false, reason: 'unknown' };
    const hash = hashOf(token);
    const row = this.db.query('SELECT id, token_hash, user, revoked_at FROM tokens WHERE token_hash = $hash').get({ hash }) as { id: string; token_hash: string; user: string; revoked_at: string | null } | null;
    if (!row || !timingSafeEqual(Buffer.from(row.token_hash, 'hex'), Buffer.from(hash, 'hex'))) return { ok: false, reason: 'unknown' };
    if (row.revoked_at !== null) return { ok: false, reason: 'revoked' };
    return { ok: true, user: row.user, id: row.id };
  }

  close(): void {
    this.db.close();
  }
}
