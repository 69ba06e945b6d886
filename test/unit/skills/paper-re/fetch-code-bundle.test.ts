import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fetchCodeBundleTool } from '../../../../src/skills/paper-re/fetch-code-bundle.ts';
import { runReproduceTool } from '../../../../src/skills/paper-re/run-reproduce.ts';
import { makeBundle, tarTree } from '../../../support/bundle.ts';
import { startTestRegistry } from '../../../support/registry-server.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { callTool, type Env } from '../coding/tool-call.ts';
import { refusal } from '../hpc/job-wait.ts';

let base: string;
let ck: string;
beforeEach(() => {
  base = tempDir();
  ck = join(base, 'checkpoints', 'run1');
  mkdirSync(ck, { recursive: true });
});
afterEach(() => removeDir(base));

const env = (more: Env = {}): Env => ({ PATH: process.env.PATH, HOME: base, SVC_CHECKPOINT_DIR: ck, ...more });

/** reproduce.sh of the bundle leaves a marker: a reproduction that ran would show it. */
const FILES = { 'README.md': '# sort\n', 'code/sort.sh': 'echo sorted\n', 'reproduce.sh': `touch ran.marker\nbash code/sort.sh\n` };

async function published(files: Record<string, string> = FILES) {
  const b = await makeBundle(join(base, 'pub'), files);
  writeFileSync(join(ck, 'publish_record.json'), JSON.stringify({ ref: pathToFileURL(b.tarball).href, bundle_sha256: b.lock.bundle_sha256, dry_run: false, visibility: 'staged' }));
  return b;
}

describe('fetch_code_bundle', () => {
  test('ref and sha256 come from publish_record.json; the bundle is verified into dest and ors_seed.json written', async () => {
    // as the pipeline publishes it: code and data, reproduce.sh is built later
    const b = await published({ 'README.md': FILES['README.md'], 'code/sort.sh': FILES['code/sort.sh'], 'data/n.txt': '100\n' });
    const r = await callTool(fetchCodeBundleTool, { dest: 'repro_sandbox' }, env());
    const dest = join(ck, 'repro_sandbox');
    expect(r).toEqual({ ref: pathToFileURL(b.tarball).href, sha256: b.lock.bundle_sha256, dest, files: 3, verified: true, skipped: false });
    expect(readFileSync(join(dest, 'code/sort.sh'), 'utf8')).toBe('echo sorted\n');
    expect(JSON.parse(readFileSync(join(ck, 'ors_seed.json'), 'utf8'))).toEqual(r);
    // fetched again: the verified bundle is there already, nothing is replaced
    expect(await callTool(fetchCodeBundleTool, { dest: join(ck, 'repro_sandbox'), checkpoint_dir: ck }, env())).toMatchObject({ skipped: true, verified: true, files: 3, reason: `${dest} already holds the verified bundle` });
  });

  test('a tampered bundle is refused before anything runs: dest stays absent and run_reproduce has nothing to run', async () => {
    const b = await published();
    // one file of manifest.lock's list changed after the lock was written
    writeFileSync(join(b.tree, 'code/sort.sh'), 'echo SORTED\n');
    await tarTree(b.tree, b.tarball);
    const err = await refusal(callTool(fetchCodeBundleTool, { dest: 'repro_sandbox' }, env()));
    expect(err.message).toBe('bundle verification failed: code/sort.sh does not match its SHA-256 in manifest.lock');
    expect(existsSync(join(ck, 'repro_sandbox'))).toBe(false);
    expect((await refusal(callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'local' }, env()))).message).toContain('is not a directory');
    expect(existsSync(join(ck, 'repro_sandbox', 'ran.marker'))).toBe(false);
  });

  test('a digest other than the cited one is refused; a non-empty dest that is not the bundle needs overwrite', async () => {
    await published();
    const other = 'ab'.repeat(32);
    expect((await refusal(callTool(fetchCodeBundleTool, { dest: 'repro_sandbox', sha256: other }, env()))).message).toContain(`bundle digest mismatch: expected ${other}`);
    mkdirSync(join(ck, 'repro_sandbox'));
    writeFileSync(join(ck, 'repro_sandbox', 'notes.txt'), 'mine\n');
    expect((await refusal(callTool(fetchCodeBundleTool, { dest: 'repro_sandbox' }, env()))).message).toContain('is not empty and is not the bundle');
    expect(await callTool(fetchCodeBundleTool, { dest: 'repro_sandbox', overwrite: true }, env())).toMatchObject({ skipped: false, verified: true });
    expect(existsSync(join(ck, 'repro_sandbox', 'notes.txt'))).toBe(false);
  });

  test('dest with a reproduce.sh is kept unless overwrite', async () => {
    await published();
    mkdirSync(join(ck, 'repro_sandbox'));
    writeFileSync(join(ck, 'repro_sandbox', 'reproduce.sh'), 'echo built by the agent\n');
    const r = await callTool(fetchCodeBundleTool, { dest: 'repro_sandbox' }, env());
    expect(r).toMatchObject({ skipped: true, verified: false, files: null });
    expect(r.reason).toContain('reproduce.sh exists');
    expect(readFileSync(join(ck, 'repro_sandbox', 'reproduce.sh'), 'utf8')).toBe('echo built by the agent\n');
    expect(await callTool(fetchCodeBundleTool, { dest: 'repro_sandbox', overwrite: true }, env())).toMatchObject({ skipped: false, files: 3 });
    expect(readFileSync(join(ck, 'repro_sandbox', 'reproduce.sh'), 'utf8')).toBe(FILES['reproduce.sh']);
  });

  test('SVC_REPRO_CLONE_POLICY: deny refuses to fetch, warn fetches and records a warning', async () => {
    await published();
    const denied = await refusal(callTool(fetchCodeBundleTool, { dest: 'repro_sandbox' }, env({ SVC_REPRO_CLONE_POLICY: 'deny' })));
    expect(denied.message).toContain('refused by SVC_REPRO_CLONE_POLICY=deny');
    expect(existsSync(join(ck, 'repro_sandbox'))).toBe(false);
    const warned = await callTool(fetchCodeBundleTool, { dest: 'repro_sandbox' }, env({ SVC_REPRO_CLONE_POLICY: 'warn' }));
    expect(warned).toMatchObject({ skipped: false, verified: true });
    expect(warned.warnings[0]).toContain('SVC_REPRO_CLONE_POLICY=warn');
  });

  test('dest outside the checkpoint is refused; a checkpoint without a published bundle has nothing to fetch', async () => {
    await published();
    expect((await refusal(callTool(fetchCodeBundleTool, { dest: join(base, 'elsewhere') }, env()))).message).toContain('is outside');
    expect((await refusal(callTool(fetchCodeBundleTool, { dest: '../run2' }, env()))).message).toContain('is outside');
    writeFileSync(join(ck, 'publish_record.json'), '{}');
    const none = await callTool(fetchCodeBundleTool, { dest: 'repro_sandbox' }, env());
    expect(none).toMatchObject({ ref: null, sha256: null, skipped: true, verified: false, files: null });
    expect(none.reason).toContain('no bundle to fetch');
    expect(existsSync(join(ck, 'repro_sandbox'))).toBe(false);
  });

  test('svc://<id> from the real registry, as publish_ear records it, with the registries file and its token', async () => {
    const b = await makeBundle(join(base, 'pub'), { 'README.md': '# sort\n', 'code/sort.sh': 'echo sorted\n' });
    const registry = startTestRegistry(base);
    try {
      const token = registry.token('alice');
      const id = await registry.publish(b.tarball, token);
      const registries = join(base, 'registries.yaml');
      writeFileSync(registries, `registries:\n  - {name: lab, url: "${registry.url}", token: "${token}"}\n`);
      writeFileSync(join(ck, 'publish_record.json'), JSON.stringify({ ref: `svc://${id}`, bundle_sha256: b.lock.bundle_sha256, dry_run: false }));
      const r = await callTool(fetchCodeBundleTool, { dest: 'repro_sandbox' }, env({ SVC_REGISTRIES_FILE: registries }));
      expect(r).toEqual({ ref: `svc://${id}`, sha256: b.lock.bundle_sha256, dest: join(ck, 'repro_sandbox'), files: 2, verified: true, skipped: false });
      expect(readFileSync(join(ck, 'repro_sandbox', 'README.md'), 'utf8')).toBe('# sort\n');
    } finally {
      await registry.stop();
    }
  });
});
