import { afterEach, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOKENS_DB, TokenStore } from '../../../src/registry/tokens.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

describe('registry tokens', () => {
  test('issued once as svc_..., stored only as a hash, listed without it, revoked by id', () => {
    const dir = tempDir();
    dirs.push(dir);
    const store = new TokenStore(dir);
    const { token, record } = store.issue('alice');
    expect(token).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(record.id).toMatch(/^[0-9a-f]{16}$/);
    expect(store.check(token)).toEqual({ ok: true, user: 'alice', id: record.id });
    expect(JSON.stringify(store.list())).not.toContain(token);
    store.close();
    expect(readFileSync(join(dir, TOKENS_DB)).includes(Buffer.from(token.slice(4)))).toBe(false);
    const again = new TokenStore(dir);
    expect(again.list()).toEqual([{ id: record.id, user: 'alice', created_at: record.created_at, revoked_at: null }]);
    const revoked = again.revoke(record.id);
    expect(revoked.revoked_at).not.toBeNull();
    expect(again.check(token)).toEqual({ ok: false, reason: 'revoked' });
    expect(again.revoke(record.id).revoked_at).toBe(revoked.revoked_at);
    again.close();
  });

  test('unknown tokens, unknown ids and bad user names are refused', () => {
    const dir = tempDir();
    dirs.push(dir);
    const store = new TokenStore(dir);
    const { token } = store.issue('bob');
    expect(store.check(`${token}x`)).toEqual({ ok: false, reason: 'unknown' });
    expect(store.check('svc_nope')).toEqual({ ok: false, reason: 'unknown' });
    expect(store.check(token.slice(4))).toEqual({ ok: false, reason: 'unknown' });
    expect(() => store.revoke('0000000000000000')).toThrow('no token');
    for (const bad of ['', 'a b', '../x', 'x'.repeat(65), '-a']) expect(() => store.issue(bad)).toThrow('invalid user name');
    store.close();
  });
});
