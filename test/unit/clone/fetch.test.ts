import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { downloadToFile } from '../../../src/clone/fetch.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const dir = tempDir('svc-fetch-');
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => (new URL(req.url).pathname === '/ok' ? new Response('bundle') : Response.json({ error: 'invalid token' }, { status: 401 })) });
afterAll(() => {
  server.stop(true);
  removeDir(dir);
});

// A registry that refuses at once answers before the output file is open; the file must be open
// and closed again by the time the refusal is thrown, or it reappears after the caller removed it
// (the next registry's 'wx' open then fails, or the open hits a removed directory: an unhandled error).
test('a refused download leaves its file closed: removed by the caller, it never reappears', async () => {
  const file = join(dir, 'bundle.tar.gz');
  for (let i = 0; i < 200; i++) {
    const err = await downloadToFile(`${server.url}refuse`, file, { timeoutMs: 5000 }).catch((e) => e);
    expect(err.message).toContain('401');
    rmSync(file, { force: true });
  }
  await Bun.sleep(50);
  expect(existsSync(file)).toBe(false);
  expect(await downloadToFile(`${server.url}ok`, file, { timeoutMs: 5000 })).toEqual({ size: 6 });
  expect(await Bun.file(file).text()).toBe('bundle');
});

test('the output directory removed right after a refusal: no error surfaces later', async () => {
  for (let i = 0; i < 20; i++) {
    const sub = join(dir, `d${i}`);
    mkdirSync(sub);
    const err = await downloadToFile(`${server.url}refuse`, join(sub, 'bundle.tar.gz'), { timeoutMs: 5000 }).catch((e) => e);
    expect(err.message).toContain('401');
    rmSync(sub, { recursive: true, force: true });
  }
  await Bun.sleep(50);
});

test('an output file already there is refused without touching it', async () => {
  const file = join(dir, 'taken.tar.gz');
  writeFileSync(file, 'mine');
  const err = await downloadToFile(`${server.url}ok`, file, { timeoutMs: 5000 }).catch((e) => e);
  expect(err.message).toContain('EEXIST');
  expect(await Bun.file(file).text()).toBe('mine');
});
