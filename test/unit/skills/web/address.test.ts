import { describe, expect, test } from 'bun:test';
import { nonPublicRange } from '../../../../src/web/ip-ranges.ts';
import { checkedAddress, PrivateAddressError, webUrl } from '../../../../src/web/access-policy.ts';
import { rejection } from '../../llm/helpers.ts';

const closed = { allowPrivate: false, allowHosts: [] };

describe('nonPublicRange', () => {
  test('IPv4: loopback, private, link-local, shared, reserved and the rest are named; public ones are null', () => {
    const cases: [string, string | null][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.1.2', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['172.32.0.1', null],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'link-local'],
      ['100.64.0.1', 'shared (carrier-grade NAT)'],
      ['100.128.0.1', null],
      ['0.0.0.0', 'unspecified ("this network")'],
      ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'reserved'],
      ['198.18.0.1', 'benchmarking'],
      ['192.0.2.7', 'documentation'],
      ['8.8.8.8', null],
      ['93.184.216.34', null],
    ];
    for (const [ip, range] of cases) expect([ip, nonPublicRange(ip)]).toEqual([ip, range]);
  });

  test('IPv6, including every form that carries an IPv4 address', () => {
    const cases: [string, string | null][] = [
      ['::1', 'loopback'],
      ['[::1]', 'loopback'],
      ['0:0:0:0:0:0:0:1', 'loopback'],
      ['::', 'unspecified'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['febf::1', 'link-local'],
      ['fc00::1', 'unique local (private)'],
      ['fd12:3456::1', 'unique local (private)'],
      ['fec0::1', 'site-local (deprecated)'],
      ['ff02::1', 'multicast'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['::ffff:8.8.8.8', null],
      ['64:ff9b::7f00:1', 'loopback'],
      ['64:ff9b::808:808', null],
      ['2002:7f00:1::', 'loopback'],
      ['2002:c0a8:101::1', 'private'],
      ['::127.0.0.1', 'loopback'],
      ['::8.8.8.8', 'IPv4-compatible (deprecated)'],
      ['2001:db8::1', 'documentation'],
      ['2606:4700:4700::1111', null],
      ['2a00:1450:4001:81c::200e', null],
    ];
    for (const [ip, range] of cases) expect([ip, nonPublicRange(ip)]).toEqual([ip, range]);
  });

  test('what is no address at all is not public', () => {
    expect(nonPublicRange('example.org')).toBe('not an IP address');
  });
});

describe('checkedAddress', () => {
  test('an address literal in any spelling the URL parser accepts is judged by the address', async () => {
    for (const url of ['http://127.0.0.1/', 'http://2130706433/', 'http://0x7f.1/', 'http://127.1/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://169.254.169.254/latest/meta-data/']) {
      const err = await rejection(checkedAddress(new URL(url), closed));
      expect(err).toBeInstanceOf(PrivateAddressError);
      expect(err.message).toMatch(/^fetch_url refuses \S+: it is a (loopback|link-local) address$/);
    }
  });

  test('a name is judged by every address it resolves to', async () => {
    const err = await rejection(checkedAddress(new URL('http://localhost:8765/state'), closed));
    expect(err.message).toMatch(/^fetch_url refuses localhost:8765: it resolves to (127\.0\.0\.1|::1), a loopback address$/);
    expect((err as PrivateAddressError).hint).toContain('list it in web.allow_hosts or SVC_WEB_ALLOW_HOSTS, or set web.allow_private or SVC_WEB_ALLOW_PRIVATE=1');
  });

  test('a name that does not resolve is unreachable, not refused', async () => {
    const err = await rejection(checkedAddress(new URL('http://no-such-host.invalid/'), closed));
    expect(err).not.toBeInstanceOf(PrivateAddressError);
    expect(err.message).toMatch(/^no-such-host\.invalid does not resolve/);
  });

  test('allow_private lets every address through; allow_hosts a host, or a host on one port', async () => {
    expect(await checkedAddress(new URL('http://127.0.0.1:9/'), { allowPrivate: true, allowHosts: [] })).toEqual({ address: '127.0.0.1', family: 4 });
    expect(await checkedAddress(new URL('http://127.0.0.1:9/'), { allowPrivate: false, allowHosts: ['127.0.0.1'] })).toEqual({ address: '127.0.0.1', family: 4 });
    expect(await checkedAddress(new URL('http://127.0.0.1:9/'), { allowPrivate: false, allowHosts: ['127.0.0.1:9'] })).toEqual({ address: '127.0.0.1', family: 4 });
    expect(await rejection(checkedAddress(new URL('http://127.0.0.1:10/'), { allowPrivate: false, allowHosts: ['127.0.0.1:9'] }))).toBeInstanceOf(PrivateAddressError);
    expect(await checkedAddress(new URL('http://[::1]:9/'), { allowPrivate: false, allowHosts: ['[::1]:9'] })).toEqual({ address: '::1', family: 6 });
  });
});

describe('webUrl', () => {
  test('http and https only, absolute, without credentials', () => {
    expect(webUrl(' https://example.org/a?b=1 ').href).toBe('https://example.org/a?b=1');
    expect(() => webUrl('example.org/page')).toThrow("'example.org/page' is not a URL");
    expect(() => webUrl('file:///etc/passwd')).toThrow('fetch_url fetches http and https only, not file');
    expect(() => webUrl('ftp://example.org/x')).toThrow('not ftp');
    expect(() => webUrl('http://user:pw@example.org/')).toThrow('fetch_url does not send credentials in a URL');
  });
});
