// The memory server's health endpoint, against the real embedded server and a port that refuses.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkMemory } from '../../../src/doctor/memory.ts';
import { startMemoryServer } from '../../../src/memory/server.ts';
import { closedPort, project, removeBoxes } from './helpers.ts';

const server = startMemoryServer({ host: '127.0.0.1', port: 0, dataDir: mkdtempSync(join(tmpdir(), 'svc-doctor-memory-')) });
afterAll(async () => {
  await server.stop();
  removeBoxes();
});

describe('checkMemory', () => {
  test('a running server answers its health endpoint', async () => {
    const { cfg, env } = project({ MEMBACKEND_BASE_URL: server.url });
    const [row] = await checkMemory(cfg, env);
    expect(row).toMatchObject({ area: 'memory', item: 'server', status: 'ok', needed: false });
    expect(row?.detail).toMatch(new RegExp(`^${server.url} answers \\(svc `));
  });

  test('a server that is not there is a warning: a run starts the embedded one', async () => {
    const { cfg, env } = project({ MEMBACKEND_BASE_URL: `http://127.0.0.1:${closedPort()}` });
    const [row] = await checkMemory(cfg, env);
    expect(row).toMatchObject({ status: 'warn', needed: false });
    expect(row?.detail).toContain('a run starts the embedded server instead');
  });

  test('with SVC_MEMORY_BOOTSTRAP_LOCAL=none a silent server is a warning: a run carries on without memory', async () => {
    const { cfg, env } = project({ MEMBACKEND_BASE_URL: `http://127.0.0.1:${closedPort()}`, SVC_MEMORY_BOOTSTRAP_LOCAL: 'none' });
    const [row] = await checkMemory(cfg, env);
    expect(row).toMatchObject({ status: 'warn', needed: false, fix: 'start it (svc memory start-local) or set MEMBACKEND_BASE_URL to a running server' });
    expect(row?.detail).toEndWith('; a run carries on without memory (SVC_MEMORY_BOOTSTRAP_LOCAL=none)');
  });

  test('credentials in MEMBACKEND_BASE_URL are not in the row, answering or not', async () => {
    const port = closedPort();
    const down = project({ MEMBACKEND_BASE_URL: `http://user:pass@127.0.0.1:${port}` });
    const [silent] = await checkMemory(down.cfg, down.env);
    expect(silent?.detail).toStartWith(`memory server http://127.0.0.1:${port} (MEMBACKEND_BASE_URL): not reachable`);
    const up = project({ MEMBACKEND_BASE_URL: server.url.replace('://', '://user:pass@') });
    const [answering] = await checkMemory(up.cfg, up.env);
    expect(answering?.detail).toStartWith(`${server.url} answers`);
    expect(JSON.stringify([silent, answering])).not.toContain('pass');
  });
});
