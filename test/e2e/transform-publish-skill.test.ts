import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import { startRegistryServer, type RegistryServer } from '../../src/registry/server.ts';
import { removeDir, SVC, svc, tempDir } from '../support/svc.ts';
import { writeEarCheckpoint } from '../support/checkpoint.ts';

let dir: string;
let ckpts: string;
let reg: RegistryServer;
let alice: string;
let pool: SkillPool;

async function run(root: string, name: string): Promise<string> {
  const d = writeEarCheckpoint(join(root, name), { 'result.csv': `x\n${name}\n`, 'publish.yaml': 'include: ["**/*"]\nlicense: Apache-2.0\n' });
  expect((await svc(['ear', 'curate', d], { cwd: dir, env: {} })).code).toBe(0);
  return d;
}

const makePool = (env: Record<string, string>) =>
  new SkillPool({
    skills: listSkills(bundledWorkflow(), dir),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_WORK_DIR: dir, SVC_CHECKPOINT_DIR: join(ckpts, '20260101000000_a'), SVC_REGISTRY_URL: reg.url, SVC_REGISTRY_TOKEN: alice, ...env },
    program: SVC,
  });

const artifacts = () => (existsSync(join(dir, 'registry', 'artifacts')) ? readdirSync(join(dir, 'registry', 'artifacts')).length : 0);

beforeAll(async () => {
  dir = tempDir();
  ckpts = join(dir, 'checkpoints');
  mkdirSync(ckpts);
  mkdirSync(join(dir, 'registry'));
  reg = startRegistryServer({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'registry') });
  alice = reg.tokens.issue('alice').token;
  await run(ckpts, '20260101000000_a');
  await run(ckpts, '20260101000000_b');
  await run(ckpts, '20260101000000_c');
  await run(dir, 'outside');
  pool = makePool({});
});
afterAll(async () => {
  await pool.close();
  await reg.stop();
  removeDir(dir);
});

describe('transform-skill publish_ear / promote_ear (through a real SkillPool)', () => {
  test('are served in the paper phase', async () => {
    const tools = (await pool.tools('paper')).filter((t) => t.skill === 'transform-skill').map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['curate_ear', 'publish_ear', 'promote_ear']));
  });

  test('publish to the real registry (defaults: svc-registry, staged), promote to public, demotion refused with its kind', async () => {
    const p = await pool.call('publish_ear', { checkpoint_dir: join(ckpts, '20260101000000_a'), visibility: 'public' });
    expect(p).toEqual({ result: expect.objectContaining({ visibility: 'staged', promoted_at: null, promote_failed_at: null, backend: 'svc-registry', dry_run: false }) });
    const ref = (p as { result: { ref: string } }).result.ref;
    expect(ref).toMatch(/^svc:\/\/[0-9a-f]{16}$/);
    // checkpoint_dir defaults to SVC_CHECKPOINT_DIR; target to public
    const pr = await pool.call('promote_ear', {});
    expect(pr).toEqual({ result: expect.objectContaining({ ref, visibility: 'public', promote_failed_at: null }) });
    expect(typeof (pr as { result: { promoted_at: unknown } }).result.promoted_at).toBe('string');
    const anon = await fetch(`${reg.url}/artifact/${ref.slice(6)}`, { method: 'HEAD' });
    expect(anon.headers.get('x-svc-visibility')).toBe('public');
    const demote = await pool.call('promote_ear', { target: 'unlisted' });
    expect(demote).toEqual({ result: { error: expect.stringContaining('demotion is refused'), kind: 'conflict' } });
  });

  test('promote without a record is not_found; local-tarball dry run; bad token is auth', async () => {
    const b = join(ckpts, '20260101000000_b');
    expect(await pool.call('promote_ear', { checkpoint_dir: b, target: 'unlisted' })).toEqual({ result: { error: expect.stringContaining('no publish record'), kind: 'not_found' } });
    const before = artifacts();
    const dry = await pool.call('publish_ear', { checkpoint_dir: b, backend: 'local-tarball', dry_run: true });
    expect(dry).toEqual({ result: expect.objectContaining({ dry_run: true, backend: 'local-tarball', visibility: 'staged' }) });
    expect(existsSync(join(b, 'ear_bundle'))).toBe(false);
    const local = await pool.call('publish_ear', { checkpoint_dir: b, backend: 'local-tarball' });
    expect((local as { result: { ref: string } }).result.ref).toStartWith(`file://${join(b, 'ear_bundle')}`);
    expect(artifacts()).toBe(before);

    const c = join(ckpts, '20260101000000_c');
    mkdirSync(join(c, '.svc'));
    writeFileSync(join(c, '.svc', 'registries.yaml'), `registries:\n  - name: lab\n    url: ${reg.url}\n    token: svc_not_a_real_token_000\n`);
    const auth = await pool.call('publish_ear', { checkpoint_dir: c });
    expect(auth).toEqual({ result: { error: expect.stringContaining('401'), kind: 'auth' } });
    expect(JSON.stringify(auth)).not.toContain('svc_not_a_real_token_000');
  });

  test('checkpoint_dir must be a checkpoint inside the checkpoints root', async () => {
    const outside = await pool.call('publish_ear', { checkpoint_dir: join(dir, 'outside'), backend: 'local-tarball' });
    expect(outside).toEqual({ result: { error: expect.stringContaining('outside the checkpoints root'), kind: 'invalid' } });
    expect(existsSync(join(dir, 'outside', 'publish_record.json'))).toBe(false);
    symlinkSync(join(dir, 'outside'), join(ckpts, '20260101000000_link'));
    const link = await pool.call('publish_ear', { checkpoint_dir: join(ckpts, '20260101000000_link'), backend: 'local-tarball' });
    expect(link).toEqual({ result: expect.objectContaining({ kind: 'invalid' }) });
    expect(await pool.call('promote_ear', { checkpoint_dir: `${ckpts}/../outside` })).toEqual({ result: expect.objectContaining({ kind: 'invalid' }) });
    expect(await pool.call('promote_ear', { checkpoint_dir: ckpts })).toEqual({ result: expect.objectContaining({ kind: 'invalid' }) });
    expect(await pool.call('publish_ear', { checkpoint_dir: join(ckpts, 'nope') })).toEqual({ result: expect.objectContaining({ kind: 'not_found' }) });
    mkdirSync(join(ckpts, 'plain'));
    expect(await pool.call('publish_ear', { checkpoint_dir: join(ckpts, 'plain') })).toEqual({ result: { error: expect.stringContaining('is not a checkpoint'), kind: 'invalid' } });
    // arguments outside the schema never reach the tool
    for (const [tool, args] of [
      ['publish_ear', { backend: 'ftp' }],
      ['publish_ear', { dry_run: 'yes' }],
      ['publish_ear', { other: 1 }],
      ['promote_ear', { target: 'staged' }],
      ['promote_ear', { checkpoint_dir: 3 }],
    ] as const) {
      const r = await pool.call(tool, args as Record<string, unknown>);
      expect(r).toEqual({ error: expect.any(String) });
    }
  });

  test('SVC_PUBLISH_DRYRUN forces a dry run', async () => {
    const dryPool = makePool({ SVC_PUBLISH_DRYRUN: '1', SVC_CHECKPOINT_DIR: join(ckpts, '20260101000000_c') });
    try {
      rmRegistries();
      const before = artifacts();
      const r = await dryPool.call('publish_ear', {});
      expect(r).toEqual({ result: expect.objectContaining({ dry_run: true, visibility: 'staged', backend: 'svc-registry' }) });
      expect(artifacts()).toBe(before);
    } finally {
      await dryPool.close();
    }
  });
});

function rmRegistries(): void {
  removeDir(join(ckpts, '20260101000000_c', '.svc'));
}
