import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, oneLine, UnavailableError } from '../../../../src/core/errors.ts';
import { findSsh, probeSsh, sshTarget } from '../../../../src/core/ssh/probe.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

describe('sshTarget', () => {
  const opts = () => ({ cwd: dir, home: join(dir, 'home') });

  test.each([
    [{ host: 'login.cluster.example.org' }, { host: 'login.cluster.example.org', port: 22, user: null, key: null }],
    [{ host: 'cluster_alias', port: 2222, user: 'alice' }, { host: 'cluster_alias', port: 2222, user: 'alice', key: null }],
    [{ host: '10.0.0.7', user: '' }, { host: '10.0.0.7', port: 22, user: null, key: null }],
    [{ host: '[::1]', key: '  ' }, { host: '::1', port: 22, user: null, key: null }],
    [{ host: 'fe80::1' }, { host: 'fe80::1', port: 22, user: null, key: null }],
    [{ host: 'node-01.' }, { host: 'node-01.', port: 22, user: null, key: null }],
  ])('accepts %j', (login, target) => expect(sshTarget(login, opts())).toEqual(target));

  test('a key path: relative to cwd, or ~ for the home directory', () => {
    mkdirSync(join(dir, 'home', '.ssh'), { recursive: true });
    writeFileSync(join(dir, 'home', '.ssh', 'id'), 'k');
    writeFileSync(join(dir, 'id_rel'), 'k');
    expect(sshTarget({ host: 'h', key: '~/.ssh/id' }, opts()).key).toBe(join(dir, 'home', '.ssh', 'id'));
    expect(sshTarget({ host: 'h', key: 'id_rel' }, opts()).key).toBe(join(dir, 'id_rel'));
  });

  test.each([
    [{ host: '-oProxyCommand=sh -c id' }, "starts with '-'"],
    [{ host: '-p' }, "starts with '-'"],
    [{ host: '[-oX]' }, "starts with '-'"],
    [{ host: 'a b' }, 'is not a host name'],
    [{ host: 'a@b' }, 'is not a host name'],
    [{ host: 'a$(id)' }, 'is not a host name'],
    [{ host: 'bad-.example' }, 'is not a host name'],
    [{ host: `${'a'.repeat(64)}.org` }, 'is not a host name'],
    [{ host: '' }, 'is not a host name'],
    [{ host: 'h', port: 0 }, 'out of range'],
    [{ host: 'h', port: 65536 }, 'out of range'],
    [{ host: 'h', port: 22.5 }, 'out of range'],
    [{ host: 'h', user: '-l' }, 'plain user name'],
    [{ host: 'h', user: 'root@x' }, 'plain user name'],
    [{ host: 'h', key: 'missing' }, 'does not exist'],
    [{ host: 'h', key: '.' }, 'is not a file'],
  ])('refuses %j', (login, message) => {
    expect(() => sshTarget(login, opts())).toThrow(InputError);
    expect(() => sshTarget(login, opts())).toThrow(message);
  });
});

describe('findSsh', () => {
  test('names the package to install when ssh is not on PATH', () => {
    expect(() => findSsh(dir)).toThrow(UnavailableError);
    try {
      findSsh(undefined);
      throw new Error('findSsh found ssh on an empty PATH');
    } catch (err) {
      expect(oneLine(err)).toBe('ssh is not installed: no ssh on PATH (install openssh-client, e.g. apt-get install openssh-client)');
    }
  });
  test('finds ssh on PATH', () => {
    expect(findSsh('/usr/local/bin:/usr/bin:/bin')).toMatch(/\/ssh$/);
  });
});

describe('probeSsh', () => {
  test('a server that never answers is killed at the overall timeout', async () => {
    const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    try {
      const target = sshTarget({ host: '127.0.0.1', port: silent.port }, { cwd: dir, home: dir });
      const r = await probeSsh(target, { ssh: findSsh('/usr/bin:/bin'), env: { HOME: dir }, knownHostsFile: join(dir, 'kh', 'known_hosts'), connectTimeoutS: 30, timeoutMs: 400 });
      expect(r).toEqual({ ok: false, host: '127.0.0.1', reason: 'timed out after 0.4 s' });
    } finally {
      silent.stop(true);
    }
  });

  test("ssh's own connect timeout covers the banner exchange", async () => {
    const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    try {
      const target = sshTarget({ host: '127.0.0.1', port: silent.port }, { cwd: dir, home: dir });
      const r = await probeSsh(target, { ssh: findSsh('/usr/bin:/bin'), env: { HOME: dir }, knownHostsFile: join(dir, 'known_hosts'), connectTimeoutS: 1 });
      expect(r).toEqual({ ok: false, host: '127.0.0.1', reason: 'Connection timed out during banner exchange' });
    } finally {
      silent.stop(true);
    }
  });

  test('paths with % and spaces are passed literally', async () => {
    const odd = join(dir, '100% sure dir');
    mkdirSync(odd);
    writeFileSync(join(odd, 'key %h'), 'not a key');
    const target = sshTarget({ host: '127.0.0.1', port: 1, key: join(odd, 'key %h') }, { cwd: dir, home: dir });
    const r = await probeSsh(target, { ssh: findSsh('/usr/bin:/bin'), env: { HOME: dir }, knownHostsFile: join(odd, 'known %h') });
    // the options parsed: ssh got as far as connecting
    expect(r).toEqual({ ok: false, host: '127.0.0.1', reason: 'ssh: connect to host 127.0.0.1 port 1: Connection refused' });
  });
});
