// The built binary's `svc doctor`, run from a directory of its own: listed in the help, --json as
// {rows, ok}, the table with each fix below its row and a verdict, exit 0 when what the workflow
// needs works and 1 when it does not.
import { afterAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathWith, removePathDirs } from '../support/container.ts';
import { startModelServer } from '../support/model-server.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';

const server = startModelServer([], { models: ['served-a'] });
const dir = tempDir();
writeFileSync(join(dir, 'no-paper.yaml'), 'pipeline: []\n');
afterAll(() => {
  server.stop();
  removeDir(dir);
  removePathDirs();
});

const env = () => ({ HOME: dir, PATH: pathWith([]), SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'served-a', MEMBACKEND_BASE_URL: 'http://127.0.0.1:9' });

describe('svc doctor (binary)', () => {
  test('the help lists it', async () => {
    expect((await svc(['--help'], { cwd: dir })).stdout).toContain('  doctor ');
  });

  test('with the paper stages off and a model server listing the model, it is ready: exit 0', async () => {
    const r = await svc(['doctor', '--json', '--config', join(dir, 'no-paper.yaml')], { cwd: dir, env: env() });
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.ok).toBe(true);
    expect([...new Set(body.rows.map((x: { area: string }) => x.area))]).toEqual(['models', 'memory', 'executor', 'containers', 'latex', 'pdf', 'disk', 'registry']);
  });

  test('with the paper stages on and no LaTeX on PATH, it is not ready: exit 1', async () => {
    const r = await svc(['doctor'], { cwd: dir, env: env() });
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^STATUS +AREA +ITEM +DETAIL$/);
    // each failing row's fix on the line below it
    const at = lines.findIndex((l) => /^fail +latex +pdflatex +pdflatex is not on PATH$/.test(l));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe('      fix: install it: apt-get install latexmk texlive-latex-base');
    expect(lines.at(-1)).toMatch(/^not ready: \d+ needed checks failed: .*latex pdflatex/);
  });

  test('a malformed registries file with no publish stage is a row, not a failure: exit 0', async () => {
    writeFileSync(join(dir, 'registries.yaml'), 'registries: [ {');
    const r = await svc(['doctor', '--json', '--config', join(dir, 'no-paper.yaml')], { cwd: dir, env: { ...env(), SVC_REGISTRIES_FILE: join(dir, 'registries.yaml') } });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout).rows.filter((x: { area: string }) => x.area === 'registry');
    expect(rows).toEqual([expect.objectContaining({ item: 'check', status: 'fail', needed: false })]);
  });

  test('credentials in the memory and local daemon URLs are in neither the JSON nor the table', async () => {
    const secret = { ...env(), MEMBACKEND_BASE_URL: 'http://user:pass@127.0.0.1:9', SVC_BACKEND: 'localllm', LOCALLLM_HOST: 'http://user:pass@127.0.0.1:9' };
    const json = await svc(['doctor', '--json', '--config', join(dir, 'no-paper.yaml')], { cwd: dir, env: secret });
    const rows = JSON.parse(json.stdout).rows as { area: string; item: string; detail: string }[];
    expect(rows.find((x) => x.area === 'memory')?.detail).toStartWith('memory server http://127.0.0.1:9 ');
    expect(rows.find((x) => x.item === 'localllm endpoint')?.detail).toBe('local model daemon at http://127.0.0.1:9: not reachable');
    const table = await svc(['doctor', '--config', join(dir, 'no-paper.yaml')], { cwd: dir, env: secret });
    for (const out of [json.stdout, json.stderr, table.stdout, table.stderr]) expect(out).not.toContain('pass@');
  });

  test('a bad flag value is refused in one line, with nothing on stdout', async () => {
    const r = await svc(['doctor', '--profile', 'nosuch'], { cwd: dir, env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("unknown profile 'nosuch'");
  });
});
