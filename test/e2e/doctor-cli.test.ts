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

  test('a bad flag value is refused in one line, with nothing on stdout', async () => {
    const r = await svc(['doctor', '--profile', 'nosuch'], { cwd: dir, env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("unknown profile 'nosuch'");
  });
});
