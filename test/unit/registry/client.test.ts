import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RegistryClient, RegistryError, RegistryStallError } from '../../../src/registry/client.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

/** Part of a body, then nothing for longer than any test waits. */
const stalling = () =>
  new ReadableStream<Uint8Array>({
    async start(c) {
      c.enqueue(new Uint8Array([0x1f, 0x8b]));
      await Bun.sleep(30_000);
      c.close();
    },
  });

// A server that lies: it announces one digest and sends other bytes, as a damaged transfer would.
let dir: string;
let server: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  dir = tempDir('svc-registry-client-');
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === '/artifact/0123456789abcdef') return new Response('not the bundle', { headers: { 'X-Svc-Sha256': 'a'.repeat(64), 'X-Svc-Visibility': 'public' } });
      if (path === '/artifact/1111111111111111') return new Response('no digest header');
      if (path === '/artifact/3333333333333333') return new Response(stalling(), { headers: { 'X-Svc-Sha256': 'a'.repeat(64) } });
      if (path === '/artifact/4444444444444444/promote') return new Promise<Response>(() => {});
      return Response.json({ error: 'no artifact' }, { status: 404 });
    },
  });
});
afterAll(() => {
  server.stop(true);
  removeDir(dir);
});

describe('RegistryClient', () => {
  test('a download whose bytes do not match the announced SHA-256 leaves no file', async () => {
    const client = new RegistryClient({ url: `http://127.0.0.1:${server.port}/` });
    const to = join(dir, 'sub', 'bundle.tar.gz');
    const err = await client.download('0123456789abcdef', to).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryError);
    expect((err as Error).message).toContain('not the announced');
    expect(existsSync(to)).toBe(false);
    expect(readdirSync(join(dir, 'sub'))).toEqual([]);
  });

  test('an answer without a digest, an unknown id and an unreachable registry are errors with a status', async () => {
    const client = new RegistryClient({ url: `http://127.0.0.1:${server.port}` });
    await expect(client.download('1111111111111111', join(dir, 'x'))).rejects.toMatchObject({ status: 502 });
    await expect(client.download('2222222222222222', join(dir, 'y'))).rejects.toMatchObject({ status: 404, message: expect.stringContaining('no artifact') });
    expect(existsSync(join(dir, 'y'))).toBe(false);
    await expect(new RegistryClient({ url: 'http://127.0.0.1:1' }).download('2222222222222222', join(dir, 'z'))).rejects.toMatchObject({ status: 0 });
  });

  test('a registry that stops sending, before its answer or in the middle of a bundle, fails with the stall error and leaves no file', async () => {
    const client = new RegistryClient({ url: `http://127.0.0.1:${server.port}`, stallMs: 300 });
    const to = join(dir, 'stalled', 'bundle.tar.gz');
    const err = await client.download('3333333333333333', to).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryStallError);
    expect(err).toMatchObject({ status: 0, message: 'registry GET /artifact/3333333333333333 timed out: no data for 0.3 s' });
    expect(readdirSync(join(dir, 'stalled'))).toEqual([]);
    await expect(client.promote('4444444444444444', 'public')).rejects.toBeInstanceOf(RegistryStallError);
  });
});
