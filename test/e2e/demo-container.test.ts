// The offline demo replayed with each of its nodes' commands in a real container: the image holds
// busybox and node, nothing of this machine but the work directory is mounted.
import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { comparisonsOf, DEMO_CASSETTE, runDemo, treeNodes } from '../../scripts/record-demo.ts';
import { ensureNodeImage } from '../support/container.ts';
import { removeDir } from '../support/svc.ts';

const runtime = await ensureNodeImage();
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

describe.skipIf('reason' in runtime)(`the demo in a container${'reason' in runtime ? ` (skipped: ${runtime.reason})` : ''}`, () => {
  test('replayed with SVC_CONTAINER_IMAGE: the same nodes and best result as on this machine; each report names the image', async () => {
    if ('reason' in runtime) return;
    const run = await runDemo({ env: { SVC_CONTAINER_IMAGE: runtime.image }, replay: DEMO_CASSETTE });
    roots.push(run.root);
    expect(run.code, run.stderr).toBe(0);
    const checkpoint = run.checkpoint ?? '';
    const nodes = treeNodes(checkpoint);
    expect(nodes.length).toBe(5);
    expect(Math.min(...nodes.map((n) => comparisonsOf(n) ?? Number.POSITIVE_INFINITY))).toBe(30_850);
    const reports = nodes.map((n) => JSON.parse(readFileSync(join(run.root, 'workspace', 'experiments', checkpoint.split('/').pop() ?? '', n.id, 'node_report.json'), 'utf8')));
    const id = (await new Response(Bun.spawn([runtime.binary, 'image', 'inspect', '--format', '{{.Id}}', runtime.image], { stdout: 'pipe' }).stdout).text()).trim();
    for (const r of reports) expect(r.container).toMatchObject({ runtime: runtime.runtime, image: runtime.image, digest: id });
    // every container was removed when its command ended (each is named svc-local-<id>)
    const left = await new Response(Bun.spawn([runtime.binary, 'ps', '-aq', '--filter', 'name=^svc-local-'], { stdout: 'pipe' }).stdout).text();
    expect(left.trim()).toBe('');
  }, 300_000);
});
