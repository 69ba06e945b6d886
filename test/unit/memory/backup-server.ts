import { afterEach, beforeEach } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryClient } from '../../../src/memory/client.ts';
import { type MemoryServer, startMemoryServer } from '../../../src/memory/server.ts';
import { writeCheckpoint } from '../../support/checkpoint.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

/** The embedded memory server in this process on a free port, with a client talking to it over HTTP. */
export type LiveMemory = { server: MemoryServer; client: MemoryClient; url: string };

export function startLiveMemory(dataDir: string, opts: { fetch?: typeof fetch } = {}): LiveMemory {
  const server = startMemoryServer({ port: 0, host: '127.0.0.1', dataDir });
  const client = new MemoryClient({ baseUrl: server.url, timeoutMs: 5000, ...(opts.fetch ? { fetch: opts.fetch } : {}) });
  return { server, client, url: server.url };
}

/**
 * For each test of the calling file: a temp directory holding a checkpoint, and the embedded
 * server on a database of its own; stopped and removed after the test.
 */
export function liveCheckpoint(): { dir: string; ckpt: string; mem: LiveMemory } {
  const t = {} as { dir: string; ckpt: string; mem: LiveMemory };
  beforeEach(() => {
    t.dir = tempDir();
    t.ckpt = makeCheckpoint(t.dir);
    t.mem = startLiveMemory(join(t.dir, 'db'));
  });
  afterEach(async () => {
    await t.mem.server.stop();
    removeDir(t.dir);
  });
  return t;
}

/** A checkpoint directory (tree.json and friends) under `<root>/workspace/checkpoints/`. */
export function makeCheckpoint(root: string, runId = '20261101120000_mem'): string {
  const checkpoints = join(root, 'workspace', 'checkpoints');
  mkdirSync(checkpoints, { recursive: true });
  return writeCheckpoint(checkpoints, { runId, nodes: 3 });
}

/** A URL where nothing listens: the port of a server that was started and stopped. */
export async function deadUrl(): Promise<string> {
  const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') });
  const url = `http://127.0.0.1:${s.port}`;
  await s.stop(true);
  return url;
}

export function writeLines(file: string, records: unknown[]): void {
  writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
}
