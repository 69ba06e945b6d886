import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { removeDir, tempDir } from './svc.ts';

export const SSHD = '/usr/sbin/sshd';

export type TestSshd = {
  host: '127.0.0.1';
  port: number;
  /** a private key whose public half the server accepts */
  clientKey: string;
  /** a valid private key the server does not know */
  strangerKey: string;
  /** the server's public host key, `<type> <base64>` */
  hostKey: string;
  stop: () => Promise<void>;
};

/**
 * A real OpenSSH server on 127.0.0.1 and a free port, running as the current user, with its own
 * host key and one authorised client key, all in a temp directory. Key login only.
 */
export async function startSshd(): Promise<TestSshd> {
  const dir = tempDir('svc-sshd-');
  for (const k of ['host_key', 'client_key', 'stranger_key']) await keygen(join(dir, k));
  copyFileSync(join(dir, 'client_key.pub'), join(dir, 'authorized_keys'));
  chmodSync(join(dir, 'authorized_keys'), 0o600);
  // sshd refuses to start without its privilege separation directory, which packages create at boot
  if (!existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755, recursive: true });
  const port = await freePort();
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      'ListenAddress 127.0.0.1',
      `Port ${port}`,
      `HostKey ${join(dir, 'host_key')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      // the temp directory sits in world-writable /tmp, which strict modes would reject
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      '',
    ].join('\n'),
  );
  const proc = Bun.spawn([SSHD, '-D', '-e', '-f', config], { stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
  await waitForListening(proc, port);
  return {
    host: '127.0.0.1',
    port,
    clientKey: join(dir, 'client_key'),
    strangerKey: join(dir, 'stranger_key'),
    hostKey: readFileSync(join(dir, 'host_key.pub'), 'utf8').split(' ').slice(0, 2).join(' '),
    stop: async () => {
      proc.kill('SIGTERM');
      await proc.exited;
      removeDir(dir);
    },
  };
}

async function keygen(file: string): Promise<void> {
  const p = Bun.spawn(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C', 'svc-test', '-f', file], { stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
  const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
  if (code !== 0) throw new Error(`ssh-keygen failed: ${err}`);
}

/** A port nothing listens on right now: bind port 0, note the port, close. */
export async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/** sshd -e logs to stderr; it is ready once it says it listens. */
async function waitForListening(proc: Subprocess<'ignore', 'ignore', 'pipe'>, port: number): Promise<void> {
  const reader = proc.stderr.getReader();
  const decoder = new TextDecoder();
  let log = '';
  while (!log.includes(`Server listening on 127.0.0.1 port ${port}`)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`sshd exited before listening (code ${await proc.exited}): ${log}`);
    log += decoder.decode(value, { stream: true });
  }
  // keep draining, so a chatty sshd never blocks on a full pipe
  void (async () => {
    while (!(await reader.read()).done) {}
  })();
}
