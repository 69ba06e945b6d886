import { describe, expect, test } from 'bun:test';
import { embargoStart, mayPromote, parseVisibility, readAccess } from '../../../src/registry/visibility.ts';

describe('registry visibility', () => {
  test('parses the states and refuses others and impossible dates', () => {
    for (const v of ['staged', 'unlisted', 'public', 'private-token', 'embargoed-until:2027-02-28']) expect(parseVisibility(v)).toBe(v as never);
    for (const v of ['', 'Public', 'private', 'embargoed-until:2027-02-30', 'embargoed-until:2027-2-1', 'embargoed-until:', 'embargoed-until:2027-13-01']) expect(parseVisibility(v)).toBeNull();
  });

  test('an embargo ends at 00:00 UTC of its date', () => {
    const start = Date.UTC(2027, 0, 15);
    expect(embargoStart('embargoed-until:2027-01-15')).toBe(start);
    const v = 'embargoed-until:2027-01-15' as const;
    expect(readAccess(v, 'alice', null, start - 1)).toBe('refused');
    expect(readAccess(v, 'alice', { user: 'bob' }, start - 1)).toBe('refused');
    expect(readAccess(v, 'alice', { user: 'alice' }, start - 1)).toBe('ok');
    expect(readAccess(v, 'alice', null, start)).toBe('ok');
  });

  test('who reads what', () => {
    const bob = { user: 'bob' };
    expect(readAccess('staged', 'alice', null, 0)).toBe('token');
    expect(readAccess('staged', 'alice', bob, 0)).toBe('refused');
    expect(readAccess('staged', 'alice', { user: 'alice' }, 0)).toBe('ok');
    expect(readAccess('private-token', 'alice', null, 0)).toBe('token');
    expect(readAccess('private-token', 'alice', bob, 0)).toBe('ok');
    expect(readAccess('unlisted', 'alice', null, 0)).toBe('ok');
    expect(readAccess('public', 'alice', null, 0)).toBe('ok');
  });

  test('promotion widens; demotion and sideways moves are refused; the same state is a retry', () => {
    expect(mayPromote('staged', 'unlisted')).toBe(true);
    expect(mayPromote('staged', 'public')).toBe(true);
    expect(mayPromote('staged', 'private-token')).toBe(true);
    expect(mayPromote('staged', 'embargoed-until:2030-01-01')).toBe(true);
    expect(mayPromote('unlisted', 'public')).toBe(true);
    expect(mayPromote('private-token', 'public')).toBe(true);
    expect(mayPromote('embargoed-until:2030-01-01', 'public')).toBe(true);
    expect(mayPromote('public', 'public')).toBe(true);
    expect(mayPromote('public', 'unlisted')).toBe(false);
    expect(mayPromote('public', 'staged')).toBe(false);
    expect(mayPromote('unlisted', 'staged')).toBe(false);
    expect(mayPromote('unlisted', 'private-token')).toBe(false);
    expect(mayPromote('embargoed-until:2030-01-01', 'embargoed-until:2031-01-01')).toBe(false);
  });
});
