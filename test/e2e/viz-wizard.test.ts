import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { lacks } from '../support/components.ts';
import { freePort, startSshd, type TestSshd } from '../support/sshd.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

const EXPERIMENT = `# Cache-blocked matmul

Some preamble that is not the goal.

## Research Goal
Find the block size that maximises GFLOP/s
of a blocked matrix multiply.

## Setup
- **Primary metric:** GFLOP/s
- Partition: gpu-small

Use \`data.csv\` from the uploads and params.json beside this file; missing.csv is not there,
../secret.txt is outside, and https://example.org/page.html is a link.
`;

let dir: string;
let root: string;
let ckpt: string;
let viz: Viz;

beforeEach(async () => {
  dir = tempDir();
  root = join(dir, 'workspace', 'checkpoints');
  mkdirSync(root, { recursive: true });
  writeCheckpoint(root, { runId: '20261101100000_other', nodes: 2 });
  ckpt = writeCheckpoint(root, { runId: '20261101120000_matmul', nodes: 2 });
  writeFileSync(join(ckpt, 'experiment.md'), EXPERIMENT);
  mkdirSync(join(ckpt, 'uploads', 'sub'), { recursive: true });
  writeFileSync(join(ckpt, 'uploads', 'data.csv'), 'a,b\n1,2\n');
  writeFileSync(join(ckpt, 'uploads', 'extra.bin'), 'xyz');
  writeFileSync(join(ckpt, 'uploads', 'sub', 'nested.txt'), 'n');
  writeFileSync(join(ckpt, 'uploads', '.data.csv.123.tmp'), 'partial');
  writeFileSync(join(ckpt, 'params.json'), '{}');
  writeFileSync(join(root, 'secret.txt'), 'secret');
  viz = await startViz([join(dir, 'workspace')], { cwd: dir });
});
afterEach(async () => {
  await viz.stop();
  removeDir(dir);
});

describe('GET /api/experiment-detail', () => {
  test('parses the active checkpoint experiment file and lists what a run is given', async () => {
    const r = await viz.get('/api/experiment-detail');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      title: 'Cache-blocked matmul',
      goal: 'Find the block size that maximises GFLOP/s of a blocked matrix multiply.',
      metric: 'GFLOP/s',
      partition: 'gpu-small',
      provided_files: [
        { name: 'params.json', path: 'params.json', size: 2, mentioned: true },
        { name: 'data.csv', path: 'uploads/data.csv', size: 8, mentioned: true },
        { name: 'extra.bin', path: 'uploads/extra.bin', size: 3, mentioned: false },
        { name: 'nested.txt', path: 'uploads/sub/nested.txt', size: 1, mentioned: false },
      ],
      text: EXPERIMENT,
    });
  });

  test('?id= reads another checkpoint without switching', async () => {
    const r = await viz.get('/api/experiment-detail?id=20261101100000_other');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: 'Generated', goal: 'Maximise throughput of the generated kernel.', metric: null, partition: null, provided_files: [] });
    expect((await viz.get('/api/experiment-detail')).body.title).toBe('Cache-blocked matmul');
  });

  test('?path= inside the checkpoints root: a checkpoint directory or a Markdown file', async () => {
    writeFileSync(join(ckpt, 'draft.md'), '# Draft\n\nMetrics: accuracy\n');
    const byDir = await viz.get(`/api/experiment-detail?path=${encodeURIComponent('20261101120000_matmul')}`);
    expect(byDir.status).toBe(200);
    expect(byDir.body.title).toBe('Cache-blocked matmul');
    const byFile = await viz.get(`/api/experiment-detail?path=${encodeURIComponent(join(ckpt, 'draft.md'))}`);
    expect(byFile.status).toBe(200);
    expect(byFile.body).toMatchObject({ title: 'Draft', goal: 'Metrics: accuracy', metric: 'accuracy' });
  });

  test.each(['../secret.txt', '/etc/passwd', '20261101120000_matmul/../../../etc', 'outlink'])('?path=%s outside the checkpoints root is 400', async (p) => {
    symlinkSync(dir, join(root, 'outlink'));
    writeFileSync(join(dir, 'experiment.md'), '# Outside\n');
    const r = await viz.get(`/api/experiment-detail?path=${encodeURIComponent(p)}`);
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('is outside');
  });

  test('?path= to a file that is not Markdown is 400', async () => {
    const r = await viz.get(`/api/experiment-detail?path=${encodeURIComponent('20261101120000_matmul/params.json')}`);
    expect(r.status).toBe(400);
    expect(r.body.error).toContain("path '20261101120000_matmul/params.json' is not a Markdown file");
  });

  test('a hard link to a file elsewhere is not read, under any name: 400, its text not in the answer', async () => {
    writeFileSync(join(dir, 'private.md'), '# Private\n\nthe other name of this file is outside the checkpoints\n');
    linkSync(join(dir, 'private.md'), join(ckpt, 'notes.md'));
    const byPath = await viz.get(`/api/experiment-detail?path=${encodeURIComponent('20261101120000_matmul/notes.md')}`);
    expect(byPath.status).toBe(400);
    expect(byPath.body.error).toContain('is a hard link');
    rmSync(join(ckpt, 'experiment.md'));
    linkSync(join(dir, 'private.md'), join(ckpt, 'experiment.md'));
    const active = await viz.get('/api/experiment-detail');
    expect(active.status).toBe(400);
    expect(JSON.stringify(active.body)).not.toContain('Private');
  });

  test('a Markdown file in a credentials directory is not read', async () => {
    mkdirSync(join(ckpt, '.aws'));
    writeFileSync(join(ckpt, '.aws', 'keys.md'), '# aws_secret_access_key = abc\n');
    const r = await viz.get(`/api/experiment-detail?path=${encodeURIComponent('20261101120000_matmul/.aws/keys.md')}`);
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('holds secrets');
  });

  test('id and path together are 400', async () => {
    const r = await viz.get('/api/experiment-detail?id=20261101120000_matmul&path=20261101120000_matmul');
    expect(r).toEqual({ status: 400, body: { error: 'give either id or path, not both' } });
  });

  test('unknown or path-like ids are 404 not found', async () => {
    for (const id of ['20991231000000_nope', '..', '../workspace', '%2Fetc']) {
      const r = await viz.get(`/api/experiment-detail?id=${encodeURIComponent(id)}`);
      expect(r).toEqual({ status: 404, body: { error: 'not found' } });
    }
  });

  test('a checkpoint without experiment.md is 404', async () => {
    rmSync(join(ckpt, 'experiment.md'));
    const r = await viz.get('/api/experiment-detail');
    expect(r.status).toBe(404);
    expect(r.body.error).toContain('experiment.md does not exist');
  });

  test('an experiment.md that is a symlink out of the checkpoint is 400', async () => {
    rmSync(join(ckpt, 'experiment.md'));
    symlinkSync(join(root, 'secret.txt'), join(ckpt, 'experiment.md'));
    for (const q of ['', '?id=20261101120000_matmul', '?path=20261101120000_matmul']) {
      const r = await viz.get(`/api/experiment-detail${q}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('is outside');
    }
  });

  test('without an active checkpoint: 409, while ?id= still works', async () => {
    const empty = tempDir();
    mkdirSync(join(empty, 'workspace', 'checkpoints'), { recursive: true });
    const other = await startViz([join(empty, 'workspace')], { cwd: empty });
    try {
      const r = await other.get('/api/experiment-detail');
      expect(r.status).toBe(409);
      expect(r.body.error).toStartWith('no active checkpoint');
      writeCheckpoint(join(empty, 'workspace', 'checkpoints'), { runId: '20261101130000_late' });
      expect((await other.get('/api/experiment-detail?id=20261101130000_late')).body.title).toBe('Generated');
    } finally {
      await other.stop();
      removeDir(empty);
    }
  });
});

describe('POST /api/ssh/test', () => {
  let sshd: TestSshd;
  beforeAll(async () => {
    if (!lacks('sshd')) sshd = await startSshd();
  });
  afterAll(async () => {
    await sshd?.stop();
  });

  test.skipIf(lacks('sshd'))('logs in to a real sshd with the given key', async () => {
    // os.userInfo() can answer "unknown" under Bun; id asks the system
    const me = Bun.spawnSync(['id', '-un']).stdout.toString().trim();
    const r = await viz.post('/api/ssh/test', { host: sshd.host, port: sshd.port, user: me, key: sshd.clientKey });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, host: '127.0.0.1', elapsed_ms: expect.any(Number) });
    // accept-new recorded the host key in the workspace, not in the user's ~/.ssh
    expect(readFileSync(join(dir, 'workspace', '.svc', 'known_hosts'), 'utf8')).toContain(sshd.hostKey);
    expect(existsSync(join(dir, '.ssh', 'known_hosts'))).toBe(false);
  });

  test.skipIf(lacks('sshd'))('a host key that differs from the recorded one fails', async () => {
    mkdirSync(join(dir, 'workspace', '.svc'), { recursive: true });
    const wrongKey = readFileSync(`${sshd.strangerKey}.pub`, 'utf8').split(' ').slice(0, 2).join(' ');
    writeFileSync(join(dir, 'workspace', '.svc', 'known_hosts'), `[127.0.0.1]:${sshd.port} ${wrongKey}\n`);
    const r = await viz.post('/api/ssh/test', { host: sshd.host, port: sshd.port, key: sshd.clientKey });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: false, host: '127.0.0.1', reason: 'Host key verification failed.' });
  });

  test.skipIf(lacks('sshd'))('a key the server does not know: permission denied', async () => {
    const r = await viz.post('/api/ssh/test', { host: sshd.host, port: sshd.port, key: sshd.strangerKey });
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(false);
    expect(r.body.reason).toMatch(/Permission denied \(publickey\)/);
  });

  test.skipIf(lacks('sshd'))('a port nobody listens on: connection refused', async () => {
    const port = await freePort();
    const r = await viz.post('/api/ssh/test', { host: '127.0.0.1', port, key: sshd.clientKey });
    expect(r.body).toEqual({ ok: false, host: '127.0.0.1', reason: `ssh: connect to host 127.0.0.1 port ${port}: Connection refused` });
  });

  test.skipIf(lacks('sshd'))('a server that does not speak SSH: the protocol error, not the generic close', async () => {
    const http = Bun.listen({
      hostname: '127.0.0.1',
      port: 0,
      socket: {
        // answer once the client's banner is read, so the close is orderly rather than a reset
        data(s) {
          s.write('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
          s.end();
        },
      },
    });
    try {
      const r = await viz.post('/api/ssh/test', { host: '127.0.0.1', port: http.port, key: sshd.clientKey });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: false, host: '127.0.0.1', reason: 'kex_exchange_identification: Connection closed by remote host' });
    } finally {
      http.stop(true);
    }
  });

  test.skipIf(lacks('sshd'))('a host name that does not resolve', async () => {
    const r = await viz.post('/api/ssh/test', { host: 'nonexistent.invalid' });
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(false);
    expect(r.body.reason).toContain('Could not resolve hostname nonexistent.invalid');
  });

  test('option injection through the host is refused before anything runs', async () => {
    const marker = join(dir, 'injected');
    for (const host of [`-oProxyCommand=touch ${marker}`, '-oProxyCommand=x', ' -p1']) {
      const r = await viz.post('/api/ssh/test', { host });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain("starts with '-'");
    }
    expect(existsSync(marker)).toBe(false);
  });

  test.each([
    [{ host: 'bad host' }, 'is not a host name or IP address'],
    [{ host: 'a;touch x' }, 'is not a host name or IP address'],
    [{ host: 'user@host' }, 'is not a host name or IP address'],
    [{ host: '' }, 'is not a host name or IP address'],
    [{ host: 'h', port: 0 }, 'port 0 is out of range'],
    [{ host: 'h', port: 65536 }, 'port 65536 is out of range'],
    [{ host: 'h', user: '-oX' }, 'is not a plain user name'],
    [{ host: 'h', user: 'a b' }, 'is not a plain user name'],
    [{ host: 'h', key: 'no-such-key' }, 'does not exist'],
    [{ host: 'h', key: '/tmp' }, 'is not a file'],
  ])('bad input %j is 400', async (body, message) => {
    const r = await viz.post('/api/ssh/test', body);
    expect(r.status).toBe(400);
    expect(r.body.error).toContain(message);
  });

  test.each([[{}], [{ host: 5 }], [{ host: 'h', port: 'ssh' }], [{ host: 'h', port: [22] }], [{ host: 'h', port: 22.5 }], [{ host: 'h', user: 1 }], [{ host: 'h', key: ['k'] }]])(
    'wrong types %j are 400',
    async (body) => {
      const r = await viz.post('/api/ssh/test', body);
      expect(r.status).toBe(400);
      expect(r.body.error).toStartWith('body');
    },
  );

  test('malformed JSON is 400', async () => {
    const res = await viz.req('/api/ssh/test', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"host": "h"' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('malformed request body');
  });

  test('without ssh on PATH: 503 naming openssh-client', async () => {
    const bare = tempDir();
    const noSsh = await startViz([join(dir, 'workspace')], { cwd: dir, env: { PATH: bare } });
    try {
      // a key file of any content: ssh is looked for before the key is read
      writeFileSync(join(bare, 'id_test'), 'not a key\n');
      const r = await noSsh.post('/api/ssh/test', { host: '127.0.0.1', port: 22, key: join(bare, 'id_test') });
      expect(r.status).toBe(503);
      expect(r.body.error).toContain('ssh is not installed');
      expect(r.body.error).toContain('openssh-client');
    } finally {
      await noSsh.stop();
      removeDir(bare);
    }
  });
});
