// The registry a publish would use: its URL answering /healthz (the real registry server) and its token.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkRegistry } from '../../../src/doctor/registry.ts';
import { startRegistryServer } from '../../../src/registry/server.ts';
import { closedPort, project, removeBoxes } from './helpers.ts';

const server = startRegistryServer({ host: '127.0.0.1', port: 0, dataDir: mkdtempSync(join(tmpdir(), 'svc-doctor-registry-')) });
afterAll(async () => {
  await server.stop();
  removeBoxes();
});

/** The svc-registry publish stage enabled. */
const PUBLISH = 'pipeline:\n  - { stage: ear_publish, skill: transform-skill, tool: publish_ear, inputs: { backend: svc-registry }, enabled: true }\n';

/** A checkpoint whose publish.yaml makes a failed publish fail the run. */
function requiredCheckpoint(required = true): string {
  const { dir } = project();
  mkdirSync(join(dir, 'ear'));
  writeFileSync(join(dir, 'ear', 'publish.yaml'), `include: ["**/*"]\nrequired: ${required}\n`);
  return dir;
}

describe('checkRegistry', () => {
  test('nothing configured and nothing publishing to a registry: skipped', async () => {
    const { cfg, env } = project({}, 'pipeline: []\n');
    expect(await checkRegistry(cfg, env)).toEqual([{ area: 'registry', item: 'url', status: 'skip', detail: 'no registry configured', needed: false }]);
  });

  test('nothing configured while a required publish stage sends bundles to a registry: a failure with the fix', async () => {
    const { cfg, env } = project({ SVC_CHECKPOINT_DIR: requiredCheckpoint() }, PUBLISH);
    const [row] = await checkRegistry(cfg, env);
    expect(row).toMatchObject({ status: 'fail', needed: true, fix: 'add it to .svc/registries.yaml or set SVC_REGISTRY_URL' });
  });

  test('the real registry answers; a missing token fails when publishing needs it', async () => {
    const { cfg, env } = project({ SVC_REGISTRY_URL: server.url, SVC_CHECKPOINT_DIR: requiredCheckpoint() }, PUBLISH);
    const rows = await checkRegistry(cfg, env);
    expect(rows[0]).toMatchObject({ item: 'url', status: 'ok', detail: `${server.url} answers (SVC_REGISTRY_URL)` });
    expect(rows[1]).toMatchObject({ item: 'token', status: 'fail', needed: true });
  });

  test("the registries file's first entry and its token (read from a variable) are used", async () => {
    const { dir } = project();
    mkdirSync(join(dir, '.svc'));
    writeFileSync(join(dir, '.svc', 'registries.yaml'), `registries:\n  - { name: lab, url: "${server.url}", token: "$LAB_TOKEN" }\n`);
    const { cfg, env } = project({ SVC_REGISTRIES_FILE: join(dir, '.svc', 'registries.yaml'), LAB_TOKEN: 'svc_secret' }, PUBLISH);
    const rows = await checkRegistry(cfg, env);
    expect(rows.map((r) => [r.item, r.status])).toEqual([
      ['url', 'ok'],
      ['token', 'ok'],
    ]);
    expect(rows[0]?.detail).toBe(`${server.url} answers (registries file entry lab)`);
    expect(JSON.stringify(rows)).not.toContain('svc_secret');
  });

  test('a registry URL that refuses connections: a failure when needed, a warning when not', async () => {
    const url = `http://127.0.0.1:${closedPort()}`;
    const needed = project({ SVC_REGISTRY_URL: url, SVC_REGISTRY_TOKEN: 't', SVC_CHECKPOINT_DIR: requiredCheckpoint() }, PUBLISH);
    expect((await checkRegistry(needed.cfg, needed.env))[0]).toMatchObject({ status: 'fail', detail: `${url} is not reachable (SVC_REGISTRY_URL)` });
    const unused = project({ SVC_REGISTRY_URL: url }, 'pipeline: []\n');
    expect((await checkRegistry(unused.cfg, unused.env)).map((r) => r.status)).toEqual(['warn', 'warn']);
  });

  test('a publish a run would not fail on leaves the registry unneeded: not required, or a dry run', async () => {
    const url = `http://127.0.0.1:${closedPort()}`;
    const cases = [
      project({ SVC_REGISTRY_URL: url }, PUBLISH), // no checkpoint: the default publish.yaml, required: false
      project({ SVC_REGISTRY_URL: url, SVC_CHECKPOINT_DIR: requiredCheckpoint(false) }, PUBLISH),
      project({ SVC_REGISTRY_URL: url, SVC_CHECKPOINT_DIR: requiredCheckpoint(), SVC_PUBLISH_DRYRUN: 'true' }, PUBLISH),
      project({ SVC_REGISTRY_URL: url, SVC_CHECKPOINT_DIR: requiredCheckpoint() }, PUBLISH.replace('backend: svc-registry', 'backend: svc-registry, dry_run: true')),
    ];
    for (const { cfg, env } of cases) {
      expect((await checkRegistry(cfg, env)).map((r) => [r.status, r.needed])).toEqual([
        ['warn', false],
        ['warn', false],
      ]);
    }
    const required = project({ SVC_REGISTRY_URL: url, SVC_CHECKPOINT_DIR: requiredCheckpoint() }, PUBLISH);
    expect((await checkRegistry(required.cfg, required.env)).map((r) => [r.status, r.needed])).toEqual([
      ['fail', true],
      ['fail', true],
    ]);
  });
});
