// `svc doctor`: the table with each fix below its row and a verdict, `--json` as {rows, ok}, and
// exit 1 exactly when something the workflow needs fails. Runs the command through src/main.ts.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathWith, removePathDirs } from '../../support/container.ts';
import { startModelServer } from '../../support/model-server.ts';

const MAIN = resolve(import.meta.dir, '../../../src/main.ts');
const server = startModelServer([], { models: ['served-a'] });
const box = mkdtempSync(join(tmpdir(), 'svc-doctor-cli-'));
writeFileSync(join(box, 'no-paper.yaml'), 'pipeline: []\n');
afterAll(() => {
  server.stop();
  rmSync(box, { recursive: true, force: true });
  removePathDirs();
});

/** `svc doctor ...args` in the box, with nothing on PATH and a model server that lists served-a. */
async function doctor(args: string[], extra: Record<string, string> = {}) {
  const env = { HOME: box, PATH: pathWith([]), SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'served-a', MEMBACKEND_BASE_URL: 'http://127.0.0.1:9', ...extra };
  const proc = Bun.spawn([process.execPath, MAIN, 'doctor', ...args], { cwd: box, env, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

describe('svc doctor', () => {
  test('--json prints {rows, ok} only; exit 0 when nothing needed fails', async () => {
    const r = await doctor(['--json', '--config', join(box, 'no-paper.yaml')]);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(Object.keys(body).sort()).toEqual(['ok', 'rows']);
    expect(body.ok).toBe(true);
    expect(body.rows.find((x: { item: string }) => x.item === 'served-a')).toMatchObject({ area: 'models', status: 'ok', needed: true });
    for (const row of body.rows) expect(Object.keys(row).every((k) => ['area', 'item', 'status', 'detail', 'fix', 'needed'].includes(k))).toBe(true);
  });

  test('the table puts each fix below its failing row, ends with the verdict, and exits 1 on a needed failure', async () => {
    const r = await doctor([]);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^STATUS +AREA +ITEM +DETAIL$/);
    const at = lines.findIndex((l) => /^fail +latex +pdflatex +pdflatex is not on PATH$/.test(l));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe('      fix: install it: apt-get install latexmk texlive-latex-base');
    expect(lines.at(-1)).toMatch(/^not ready: \d+ needed checks failed: .*latex pdflatex/);
  });

  test('a bad flag value is refused in one line, with nothing printed on stdout', async () => {
    const r = await doctor(['--profile', 'nosuch']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('nosuch');
  });
});
