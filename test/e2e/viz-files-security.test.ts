// What the dashboard serves from disk, attacked as a web page or a hostile run would: credential
// files in home, hard links to files outside the run or to .env, and a linked experiments
// directory. The researcher's own layout: `svc viz ~/proj/workspace` started from home, where
// svc itself has made ~/.svc.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

const KEY = 'sk-hardlinked-secret-0123456789';
const CREDENTIALS: Record<string, string> = {
  '.aws/credentials': '[default]\naws_secret_access_key = AWSSECRET\n',
  '.netrc': 'machine example.org login ada password NETRCSECRET\n',
  '.git-credentials': 'https://ada:GITSECRET@example.org\n',
  '.bash_history': 'export TOKEN=HISTSECRET\n',
  '.ssh/id_ed25519': '-----BEGIN OPENSSH PRIVATE KEY----- SSHSECRET\n',
  '.docker/config.json': '{"auths":{"x":{"auth":"DOCKERSECRET"}}}\n',
  '.kube/config': 'token: KUBESECRET\n',
};
const SECRET_WORDS = ['AWSSECRET', 'NETRCSECRET', 'GITSECRET', 'HISTSECRET', 'SSHSECRET', 'DOCKERSECRET', 'KUBESECRET', KEY, 'OUTSIDE-ONLY'];

let home: string;
let ws: string;
let ck: string;
let id: string;
let viz: Viz;
let linkedViz: Viz;
let linkedId: string;

beforeAll(async () => {
  home = tempDir();
  for (const [rel, text] of Object.entries(CREDENTIALS)) {
    mkdirSync(join(home, rel, '..'), { recursive: true });
    writeFileSync(join(home, rel), text);
  }
  mkdirSync(join(home, '.svc', 'memory'), { recursive: true });
  writeFileSync(join(home, 'outside.txt'), 'OUTSIDE-ONLY\n');
  ws = join(home, 'proj', 'workspace');
  ck = writeCheckpoint(join(ws, 'checkpoints'), { nodes: 2, runId: '20261101120000_served' });
  id = basename(ck);
  writeFileSync(join(home, 'proj', '.env'), `PROVIDERA_API_KEY=${KEY}\n`);
  mkdirSync(join(ws, 'experiments', id, 'node_00000001'), { recursive: true });
  writeFileSync(join(ws, 'experiments', id, 'node_00000001', 'train.py'), 'print("node code")\n');
  // hard links made inside the run: one to a file outside it, one to .env under another name
  linkSync(join(home, 'outside.txt'), join(ck, 'notes.txt'));
  linkSync(join(home, 'proj', '.env'), join(ck, 'config.txt'));
  linkSync(join(home, 'outside.txt'), join(ws, 'experiments', id, 'node_00000001', 'data.txt'));
  viz = await startViz([ws], { cwd: home, env: { HOME: home } });

  // a second workspace whose experiments/<run_id> is a link to a directory outside it
  const other = join(home, 'other', 'workspace');
  linkedId = basename(writeCheckpoint(join(other, 'checkpoints'), { nodes: 2, runId: '20261101130000_linked' }));
  mkdirSync(join(home, 'elsewhere', 'node_00000001'), { recursive: true });
  writeFileSync(join(home, 'elsewhere', 'node_00000001', 'loot.py'), 'OUTSIDE-ONLY\n');
  mkdirSync(join(other, 'experiments'), { recursive: true });
  symlinkSync(join(home, 'elsewhere'), join(other, 'experiments', linkedId));
  linkedViz = await startViz([other], { cwd: home, env: { HOME: home } });
});

afterAll(async () => {
  await Promise.all([viz.stop(), linkedViz.stop()]);
  removeDir(home);
});

async function refused(v: Viz, path: string): Promise<void> {
  const res = await v.req(path);
  const text = await res.text();
  expect([path, res.status >= 400 && res.status < 500]).toEqual([path, true]);
  for (const word of SECRET_WORDS) expect([path, text.includes(word)]).toEqual([path, false]);
}

describe('the source viewer shows the run, nothing else', () => {
  test('credential files in home are refused by absolute path, by .. and through a link', async () => {
    for (const rel of Object.keys(CREDENTIALS)) {
      await refused(viz, `/codefile?path=${encodeURIComponent(join(home, rel))}`);
      await refused(viz, `/codefile?path=${encodeURIComponent(`../../../../${rel}`)}`);
    }
    symlinkSync(join(home, '.aws', 'credentials'), join(ck, 'aws.txt'));
    await refused(viz, '/codefile?path=aws.txt');
  });

  test('the project root is no longer served: its README is outside the run', async () => {
    writeFileSync(join(home, 'proj', 'README.md'), 'OUTSIDE-ONLY\n');
    await refused(viz, `/codefile?path=${encodeURIComponent(join(home, 'proj', 'README.md'))}`);
  });

  test('a node source file by absolute path, and a checkpoint file by relative path, are still shown', async () => {
    const node = await viz.req(`/codefile?path=${encodeURIComponent(join(ws, 'experiments', id, 'node_00000001', 'train.py'))}`);
    expect(node.status).toBe(200);
    expect(await node.text()).toContain('node code');
    expect((await viz.req('/codefile?path=experiment.md')).status).toBe(200);
  });
});

describe('hard links are not served', () => {
  test('a hard link to a file outside the run, and one to .env under another name, by every route that reads files', async () => {
    for (const name of ['notes.txt', 'config.txt']) {
      await refused(viz, `/api/checkpoint/${id}/file?path=${name}`);
      await refused(viz, `/api/checkpoint/${id}/file/raw?path=${name}`);
      await refused(viz, `/codefile?path=${name}`);
      const batch = await viz.get(`/api/checkpoint/${id}/filecontent?path=${name}`);
      expect(batch.status).toBe(200);
      expect(batch.body.files[name].error).toContain('hard link');
      for (const word of SECRET_WORDS) expect(JSON.stringify(batch.body).includes(word)).toBe(false);
    }
    const node = await viz.get(`/api/checkpoint/${id}/filecontent?node_id=node_00000001&path=data.txt`);
    expect(node.body.files['data.txt'].error).toContain('hard link');
    expect(JSON.stringify(node.body)).not.toContain('OUTSIDE-ONLY');
    const res = await viz.req(`/api/checkpoint/${id}/file?path=notes.txt`);
    expect(((await res.json()) as { error: string }).error).toContain('copy the file instead');
  });

  test('the listings do not show them', async () => {
    const files = JSON.stringify((await viz.get(`/api/checkpoint/${id}/files`)).body);
    const tree = JSON.stringify((await viz.get(`/api/checkpoint/${id}/filetree`)).body);
    const nodeTree = JSON.stringify((await viz.get(`/api/checkpoint/${id}/filetree?node_id=node_00000001`)).body);
    for (const text of [files, tree]) {
      expect(text).not.toContain('notes.txt');
      expect(text).not.toContain('config.txt');
    }
    expect(nodeTree).toContain('train.py');
    expect(nodeTree).not.toContain('data.txt');
  });
});

describe('a linked experiments directory is not followed out of the workspace', () => {
  test('neither the node file routes nor the source viewer read through it', async () => {
    await refused(linkedViz, `/api/checkpoint/${linkedId}/filetree?node_id=node_00000001`);
    const batch = await linkedViz.req(`/api/checkpoint/${linkedId}/filecontent?node_id=node_00000001&path=loot.py`);
    expect(batch.status).toBe(400);
    expect(await batch.text()).not.toContain('OUTSIDE-ONLY');
    const viaLink = join(home, 'other', 'workspace', 'experiments', linkedId, 'node_00000001', 'loot.py');
    await refused(linkedViz, `/codefile?path=${encodeURIComponent(viaLink)}`);
    const res = await linkedViz.req(`/api/checkpoint/${linkedId}/filetree?node_id=node_00000001`);
    expect(((await res.json()) as { error: string }).error).toContain('leading out of the workspace');
    // the checkpoint's own files are still shown
    expect((await linkedViz.req('/codefile?path=experiment.md')).status).toBe(200);
  });
});
