// Hostile archives against every reader of bundles: `svc clone`, the dashboard's clone-verify and
// the registry's upload. Each archive is made here (test/support/archive-bombs.ts): 2 GiB of zeros
// after a valid bundle's end marker, 64 MiB of random data there, a file entry whose body unpacks
// to 2 GiB (after manifest.lock, and before it), 1.5 GiB of files with no manifest.lock to declare
// a size, and 200,001 entries. What is after the end marker
// is never read, so the bundle before it clones; the rest is refused, and nothing is left behind.
// Their memory is measured in test/bench/archive-bombs.bench.ts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, lstatSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { BOMB_FILES, entryBomb, manyEntries, noManifestBomb, trailingGarbage, trailingZerosBomb } from '../support/archive-bombs.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { type RegistryChild, spawnRegistry } from '../support/registry-server.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

let dir: string;
const archives: Record<string, string> = {};
const READABLE = ['zeros-after-end', 'garbage-after-end'];
const REFUSED = ['entry-after-manifest', 'entry-before-manifest', 'no-manifest', 'entries-200001'];

beforeAll(() => {
  dir = tempDir('svc-bombs-');
  const at = (name: string) => (archives[name] = join(dir, `${name}.tar.gz`));
  trailingZerosBomb(dir, at('zeros-after-end'));
  trailingGarbage(dir, at('garbage-after-end'));
  entryBomb(dir, at('entry-after-manifest'), 'after-manifest');
  entryBomb(dir, at('entry-before-manifest'), 'before-manifest');
  noManifestBomb(at('no-manifest'));
  manyEntries(at('entries-200001'));
});

afterAll(() => removeDir(dir));

/** Names in `where` left by a clone in progress. */
const leftovers = (where: string) => readdirSync(where).filter((n) => n.includes('clone'));

describe('svc clone', () => {
  test.each(READABLE)('%s: the bundle before the end marker is cloned and verified; what follows is never read', async (name) => {
    const out = join(dir, `clone-${name}`);
    mkdirSync(out);
    const r = await svc(['clone', `file://${archives[name]}`, 'b', '--json'], { cwd: out });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ file_count: Object.keys(BOMB_FILES).length, extracted: true });
    expect(readdirSync(join(out, 'b')).sort()).toEqual(['code', 'manifest.lock', 'results']);
    expect(leftovers(out)).toEqual([]);
  });

  test.each(REFUSED)('%s: refused in one line; no destination, no temporary directory', async (name) => {
    const out = join(dir, `clone-${name}`);
    mkdirSync(out);
    const r = await svc(['clone', `file://${archives[name]}`, 'b'], { cwd: out });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('the bundle archive is refused');
    expect(readdirSync(out)).toEqual([]);
  });

  test('200,001 entries are refused before a single file is written', async () => {
    const out = join(dir, 'clone-count');
    mkdirSync(out);
    const r = await svc(['clone', `file://${archives['entries-200001']}`, 'b'], { cwd: out });
    expect(r.stderr).toContain('more than 200000 entries');
    expect(readdirSync(out)).toEqual([]);
  });
});

describe("the dashboard's clone-verify", () => {
  let viz: Viz;
  let tmp: string;
  let planted: string;

  beforeAll(async () => {
    const ws = join(dir, 'ws');
    writeCheckpoint(join(ws, 'checkpoints'), { nodes: 2 });
    tmp = join(dir, 'viz-tmp');
    mkdirSync(tmp);
    // another local user's trap at the old fixed path: a link to a directory of theirs
    planted = join(dir, 'planted');
    mkdirSync(planted);
    symlinkSync(planted, join(tmp, 'svc-clone-verify'));
    viz = await startViz([ws], { cwd: dir, env: { TMPDIR: tmp } });
  });

  afterAll(async () => {
    await viz.stop();
  });

  test.each(READABLE)('%s: ok, and the temporary directory is gone', async (name) => {
    const { status, body } = await viz.post('/api/ear/clone-verify', { ref: `file://${archives[name]}` });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, file_count: Object.keys(BOMB_FILES).length });
    expect(readdirSync(tmp)).toEqual(['svc-clone-verify']);
  });

  test.each(REFUSED)('%s: {ok: false} naming the refusal; nothing left', async (name) => {
    const { status, body } = await viz.post('/api/ear/clone-verify', { ref: `file://${archives[name]}` });
    expect(status).toBe(200);
    expect(body.ok).toBe(false);
    expect(body.error).toContain('the bundle archive is refused');
    expect(readdirSync(tmp)).toEqual(['svc-clone-verify']);
  });

  test('each request works in a fresh private directory, never in the planted one; concurrent requests do not collide', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => viz.post('/api/ear/clone-verify', { ref: `file://${archives['zeros-after-end']}` })));
    for (const a of answers) expect(a.body.ok).toBe(true);
    expect(readdirSync(planted)).toEqual([]);
    expect(lstatSync(join(tmp, 'svc-clone-verify')).isSymbolicLink()).toBe(true);
    expect(readdirSync(tmp)).toEqual(['svc-clone-verify']);
  });

  test('a page of another origin cannot start one at all', async () => {
    const res = await viz.req('/api/ear/clone-verify', { json: { ref: `file://${archives['zeros-after-end']}` }, headers: { Origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
  });
});

describe('the registry', () => {
  let registry: RegistryChild;
  let data: string;
  let token: string;

  beforeAll(async () => {
    data = join(dir, 'registry');
    mkdirSync(data);
    token = (await svc(['registry', 'token', 'issue', 'alice', '--data-dir', data], { cwd: dir })).stdout.trim();
    registry = await spawnRegistry(data);
  });

  afterAll(async () => {
    await registry.stop();
  });

  const upload = (name: string) => fetch(`${registry.url}/artifact`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: Bun.file(archives[name] as string) });

  test.each([...READABLE, 'entry-after-manifest'])('%s: stored, its manifest.lock read without unpacking what follows', async (name) => {
    const res = await upload(name);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(existsSync(join(data, 'artifacts', id, 'manifest.lock'))).toBe(true);
    expect(readdirSync(join(data, 'tmp'))).toEqual([]);
  });

  test('a body that unpacks to gigabytes before any manifest.lock: 400, nothing stored, nothing left in tmp/', async () => {
    const before = readdirSync(join(data, 'artifacts'));
    const res = await upload('entry-before-manifest');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('archive bomb');
    expect(readdirSync(join(data, 'artifacts'))).toEqual(before);
    expect(readdirSync(join(data, 'tmp'))).toEqual([]);
  });

  test('1.5 GiB of files and no manifest.lock: 400 naming it, nothing stored', async () => {
    const before = readdirSync(join(data, 'artifacts'));
    const res = await upload('no-manifest');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('no manifest.lock');
    expect(readdirSync(join(data, 'artifacts'))).toEqual(before);
    expect(readdirSync(join(data, 'tmp'))).toEqual([]);
  });

  test('200,001 entries and no manifest.lock: 400, nothing stored', async () => {
    const before = readdirSync(join(data, 'artifacts'));
    const res = await upload('entries-200001');
    expect(res.status).toBe(400);
    expect(readdirSync(join(data, 'artifacts'))).toEqual(before);
    expect(readdirSync(join(data, 'tmp'))).toEqual([]);
  });
});
