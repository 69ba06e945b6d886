import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, SVC, svc, tempDir } from '../support/svc.ts';

const FIXTURE = resolve(import.meta.dir, '../fixtures/ari-workspace');
const RUN = '20250101000000_ari_run';

let dir: string;
beforeEach(() => {
  dir = tempDir();
  cpSync(FIXTURE, join(dir, 'workspace'), { recursive: true });
});
afterEach(() => removeDir(dir));

describe('a checkpoint written by the reference implementation', () => {
  test('status reads its tree, statuses, metric, and cost from cost_trace.jsonl', async () => {
    const r = await svc(['status', RUN], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // a pending node with no live process: the run was interrupted
    expect(r.stdout).toContain(`${RUN}  stopped\n`);
    expect(r.stdout).toContain('goal: Speed up x by any means.\n');
    expect(r.stdout).toContain('nodes: 4 total, 2 success, 0 failed, 0 running, 1 pending, 1 other\n');
    expect(r.stdout).toContain('best: node_b (score 0.800, x = 2)\n');
    expect(r.stdout).toContain('cost: $0.0110 over 2 calls, 1350 tokens\n');
    // n0 has no parent: a second root
    expect(r.stdout).toEndWith('\n├─ root [success] draft score 0.500 — baseline\n│  ├─ node_b [completed] improve score 0.800 ★ best — vectorise\n│  └─ node_c [pending] weird_label_from_llm\n└─ n0 [?]\n');
  });

  test('show reads launch_config.json, meta.json and idea.json', async () => {
    const r = await svc(['show', RUN, '--json'], { cwd: dir });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.origin).toEqual({ model: 'gpt-x', provider: 'openai', profile: 'laptop', parent_run_id: '20241231000000_parent' });
    expect(out.ideas).toEqual([
      { title: 'Vectorise x', overall_score: 0.7 },
      { title: 'Cache x', overall_score: 0.5 },
    ]);
    expect(out.experiments_dir).toBe(join(dir, 'workspace', 'experiments', RUN));
    expect(out.problems).toEqual([]);
  });

  test('an idea.json of the wrong shape is named, the rest still shown', async () => {
    const ck = join(dir, 'workspace', 'checkpoints', RUN);
    await Bun.write(join(ck, 'idea.json'), '{"ideas": "not a list"}');
    const r = await svc(['show', RUN], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`svc: ${join(ck, 'idea.json')}: /ideas: expected array\n`);
    expect(r.stdout).toContain('launched with: openai/gpt-x');
  });
});

test('a reader that closes the pipe early is not an error', async () => {
  const ck = writeCheckpoint(join(dir, 'workspace', 'checkpoints'), { nodes: 3000 });
  const proc = Bun.spawn([SVC, 'status', ck], { cwd: dir, env: { PATH: '/usr/bin:/bin', HOME: dir }, stdout: 'pipe', stderr: 'pipe' });
  const reader = proc.stdout.getReader();
  await reader.read();
  await reader.cancel();
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
});
