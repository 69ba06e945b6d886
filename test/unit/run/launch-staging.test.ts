// Files uploaded for a run not launched yet (the New experiment wizard) and the resource choices of
// a launch: the staged files are in the checkpoint before the run starts, the choices in its record.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sweepStaged } from '../../../src/core/checkpoint/upload-staging.ts';
import { launchRun } from '../../../src/run/launch.ts';
import { createApp } from '../../../src/server/app.ts';
import { ServerContext } from '../../../src/server/context.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { host, killAll, until } from './helpers.ts';

let dir: string;
let root: string;
let ctx: ServerContext;
beforeEach(() => {
  dir = tempDir();
  root = join(dir, 'workspace', 'checkpoints');
  mkdirSync(root, { recursive: true });
  ctx = new ServerContext({ PATH: process.env.PATH ?? '', HOME: dir }, dir, root, null);
});
afterEach(async () => {
  await killAll(ctx.runs);
  removeDir(dir);
});

const STAGING = 'wizard-0123456789';

async function upload(app: ReturnType<typeof createApp>, name: string, text: string, staging = STAGING) {
  const form = new FormData();
  form.append('file', new File([text], name));
  const res = await app.handle(new Request(`http://127.0.0.1/api/upload?staging=${staging}`, { method: 'POST', body: form }));
  return { status: res.status, body: (await res.json()) as any };
}

async function post(app: ReturnType<typeof createApp>, path: string, body: unknown) {
  const res = await app.handle(new Request(`http://127.0.0.1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  return { status: res.status, body: (await res.json()) as any };
}

/** A run that records what uploads/ held when it started and the resource variables it was given. */
function recorder(): string[] {
  const script = join(dir, 'recorder.sh');
  writeFileSync(script, '#!/bin/sh\nls "$SVC_CHECKPOINT_DIR/uploads" > "$SVC_CHECKPOINT_DIR/seen.txt"\necho "$SVC_EXECUTOR|$SVC_SLURM_PARTITION|$SVC_CONTAINER_IMAGE" >> "$SVC_CHECKPOINT_DIR/seen.txt"\n');
  chmodSync(script, 0o755);
  return ['/bin/sh', script];
}

test('staged uploads are in the new checkpoint when its run starts, and the staging directory is gone after', async () => {
  const app = createApp(ctx);
  expect((await upload(app, 'data.csv', 'a,b\n1,2\n')).body).toEqual({ ok: true, files: [{ name: 'data.csv', path: 'uploads/data.csv', size: 8 }] });
  expect((await upload(app, 'notes.txt', 'x')).status).toBe(200);
  expect((await post(app, '/api/upload/delete', { name: 'notes.txt', staging: STAGING })).status).toBe(200);

  const body = { experiment_md: '# Goal\n', staging: STAGING, executor: 'slurm', partition: 'debug', container_image: 'busybox:1' };
  const r = await launchRun({ ...host(dir, root, { supervisor: ctx.runs, program: recorder() }), body });
  await until(() => existsSync(join(r.checkpoint_path, 'seen.txt')) && readFileSync(join(r.checkpoint_path, 'seen.txt'), 'utf8').includes('|'));
  expect(readFileSync(join(r.checkpoint_path, 'seen.txt'), 'utf8')).toBe('data.csv\nslurm|debug|busybox:1\n');
  expect(readFileSync(join(r.checkpoint_path, 'uploads', 'data.csv'), 'utf8')).toBe('a,b\n1,2\n');
  expect(existsSync(join(dir, 'workspace', 'staging', STAGING))).toBe(false);
  const record = JSON.parse(readFileSync(join(r.checkpoint_path, 'launch_config.json'), 'utf8'));
  expect(record).toMatchObject({ executor: 'slurm', partition: 'debug' });
});

test('a launch naming a staging id nothing was uploaded under, or a bad resource, is refused before any checkpoint exists', async () => {
  const app = createApp(ctx);
  const none = await post(app, '/api/launch', { experiment_md: '# Goal\n', staging: 'never-uploaded-1' });
  expect(none.status).toBe(400);
  expect(none.body.error).toContain("no files were uploaded under staging 'never-uploaded-1'");
  const bad = await post(app, '/api/launch', { experiment_md: '# Goal\n', executor: 'cloud9', partition: 'a\nb', staging: '../x' });
  expect(bad.status).toBe(400);
  expect(bad.body.error).toContain('executor must be one of local, slurm, pbs, lsf');
  expect(bad.body.error).toContain('partition must be a non-empty partition name on one line');
  expect(bad.body.error).toContain('staging must be the staging id');
  expect(readdirSync(root)).toEqual([]);
});

test('an upload under a staging id that could name another directory is refused, and nothing is written', async () => {
  const app = createApp(ctx);
  for (const id of ['..', 'short', 'a/b/c/d/e/f', '%2e%2e%2fcheckpoints']) {
    const r = await upload(app, 'data.csv', 'x', id);
    expect(r.status, id).toBe(400);
    expect(r.body.error).toContain('is not a staging id');
  }
  expect(existsSync(join(dir, 'workspace', 'staging'))).toBe(false);
});

describe('staged uploads no launch took', () => {
  const staged = (id: string, daysOld: number) => {
    const d = join(dir, 'workspace', 'staging', id);
    mkdirSync(join(d, 'uploads'), { recursive: true });
    writeFileSync(join(d, 'uploads', 'f.txt'), id);
    const when = new Date(Date.now() - daysOld * 86_400_000);
    for (const p of [join(d, 'uploads'), d]) utimesSync(p, when, when);
    return d;
  };

  test('are removed after a week; newer ones, the one being uploaded to, and anything else under staging/ stay', () => {
    const old = staged('abandoned-aaaa', 8);
    const fresh = staged('recent-bbbbbb', 6);
    const mine = staged('mine-cccccccc', 9);
    const foreign = join(dir, 'workspace', 'staging', 'not an id');
    mkdirSync(foreign);
    utimesSync(foreign, new Date(0), new Date(0));
    const outside = join(dir, 'elsewhere');
    mkdirSync(outside, { recursive: true });
    symlinkSync(outside, join(dir, 'workspace', 'staging', 'link-dddddddd'));
    expect(sweepStaged(join(dir, 'workspace'), { keep: 'mine-cccccccc' })).toEqual(['abandoned-aaaa']);
    expect([existsSync(old), existsSync(fresh), existsSync(mine), existsSync(foreign), existsSync(outside)]).toEqual([false, true, true, true, true]);
    // a workspace without staging/: nothing to do
    expect(sweepStaged(join(dir, 'nowhere'))).toEqual([]);
  });

  test('a staged upload sweeps the others, and keeps its own directory however old', async () => {
    const old = staged('abandoned-aaaa', 30);
    const mine = staged(STAGING, 30);
    const app = createApp(ctx);
    expect((await upload(app, 'more.txt', 'y')).status).toBe(200);
    expect(existsSync(old)).toBe(false);
    expect(readdirSync(join(mine, 'uploads')).sort()).toEqual(['f.txt', 'more.txt']);
  });
});
