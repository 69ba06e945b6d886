import type { Subprocess } from 'bun';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RegistryClient } from '../../src/registry/client.ts';
import { type RegistryServer, startRegistryServer } from '../../src/registry/server.ts';
import { SVC } from './svc.ts';

export type RegistryChild = { url: string; proc: Subprocess<'ignore', 'pipe', 'pipe'>; stop: () => Promise<void> };

/** `svc registry serve` on a free port of 127.0.0.1 as a child process; resolves once it listens. */
export async function spawnRegistry(dataDir: string, env: Record<string, string> = {}): Promise<RegistryChild> {
  const proc = Bun.spawn([SVC, 'registry', 'serve', '--port', '0', '--data-dir', dataDir], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dataDir, NO_COLOR: '1', ...env },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const reader = proc.stderr.getReader();
  let seen = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`svc registry serve exited (${await proc.exited}): ${seen}`);
    seen += new TextDecoder().decode(value);
    const m = /serving .* at (http:\/\/\S+)/.exec(seen);
    if (m?.[1]) {
      // keep draining stderr so the child never blocks on a full pipe
      void (async () => {
        while (!(await reader.read().catch(() => ({ done: true }))).done);
      })();
      return {
        url: m[1],
        proc,
        stop: async () => {
          proc.kill('SIGTERM');
          await proc.exited;
        },
      };
    }
  }
}


export type TestRegistry = {
  url: string;
  dataDir: string;
  server: RegistryServer;
  /** A fresh token for `user`, issued through the registry's own TokenStore. */
  token(user: string): string;
  /** Uploads `tarball` with `token` through the real client and promotes it to `visibility` (staged: left as uploaded); returns the id. */
  publish(tarball: string, token: string, visibility?: string): Promise<string>;
  /** The ids the registry holds (its data dir's artifacts/). */
  artifacts(): string[];
  stop(): Promise<void>;
};

/** The real registry (`startRegistryServer`) in this process on 127.0.0.1, on a fresh data dir under `parent`. */
export function startTestRegistry(parent: string, name = 'registry'): TestRegistry {
  const dataDir = join(parent, `${name}-${crypto.randomUUID().slice(0, 8)}`);
  mkdirSync(dataDir, { recursive: true });
  const server = startRegistryServer({ host: '127.0.0.1', port: 0, dataDir });
  return {
    url: server.url,
    dataDir,
    server,
    token: (user) => server.tokens.issue(user).token,
    async publish(tarball, token, visibility = 'staged') {
      const client = new RegistryClient({ url: server.url, token });
      const { id } = await client.upload(tarball);
      if (visibility !== 'staged') await client.promote(id, visibility);
      return id;
    },
    artifacts: () => (existsSync(server.store.artifacts) ? readdirSync(server.store.artifacts).sort() : []),
    stop: () => server.stop(),
  };
}
