import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { oneLine } from '../../../../src/core/errors.ts';
import { buildReproduceShTool } from '../../../../src/skills/paper-re/build-reproduce.ts';
import type { Step } from '../../../support/model-server.ts';
import { ensureNodeImage, NODE_TEST_IMAGE } from '../../../support/container.ts';
import { callTool } from '../coding/tool-call.ts';
import { type Fixture, replicateFixture } from '../replicate/replicate-env.ts';

let f: Fixture;
afterEach(() => f.stop());

const program = (n: number) => `console.log(JSON.stringify({ comparisons: ${n}, sorted: 1 }));\n`;

/** A seeded repro_sandbox as the seed stage leaves it: the bundle's docs and its best and baseline programs. */
function seedBundle(root: string): void {
  const files: Record<string, string> = {
    'README.md': '# Shell sort bundle\nRun node code/best/shell.js and node code/baseline/insertion.js.\n',
    'RESULTS.md': '| config | comparisons |\n|---|---|\n| best | 20573 |\n| baseline | 1003112 |\n',
    'code/best/shell.js': program(20573),
    'code/baseline/insertion.js': program(1003112),
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
}

const build = (args: Record<string, unknown> = {}, more: Record<string, string> = {}) =>
  callTool(buildReproduceShTool, { paper_path: 'paper/paper.md', ...args }, f.env({ SVC_MODEL_REPLICATE: 'replicator-model', ...more }));
const errorOf = async (p: Promise<unknown>) => p.then(() => 'no error', (err: unknown) => oneLine(err));
const sandbox = () => join(f.ckpt, 'repro_sandbox');
const bash = (script: string) => {
  const r = Bun.spawnSync(['bash', script], { cwd: dirname(script) });
  return { code: r.exitCode, out: r.stdout.toString() };
};
const promptNames = () => f.server.requests.map((r) => /<!-- prompt: ([\w/]+) -->/.exec(JSON.stringify(r.body))?.[1]);

describe('build_reproduce_sh', () => {
  test('the agent reads the bundle, writes reproduce.sh, runs it and finishes; the script re-runs the programs', async () => {
    f = replicateFixture();
    seedBundle(sandbox());
    const r = await build();
    const script = join(sandbox(), 'reproduce.sh');
    expect(r).toEqual({
      output_dir: sandbox(),
      submission_root: sandbox(),
      reproduce_sh: script,
      steps: 5,
      finished: true,
      timed_out: false,
      elapsed_sec: expect.any(Number),
      files_written: ['reproduce.sh'],
      model: 'replicator-model',
      sandbox_kind: 'local',
      record_path: join(f.ckpt, 'ors_replicator.json'),
    });
    expect(new Set(promptNames())).toEqual(new Set(['paper_re/replicator']));
    expect(f.server.requests.map((q) => (q.body as { model: string }).model)).toEqual(Array(5).fill('replicator-model'));
    // the paper reaches the agent
    expect(JSON.stringify(f.server.requests[0]?.body)).toContain('20,573 comparisons');
    const ran = bash(script);
    expect(ran.code).toBe(0);
    expect(ran.out).toContain('== best (code/best/shell.js)\n{"comparisons":20573,"sorted":1}');
    expect(ran.out).toContain('== baseline (code/baseline/insertion.js)\n{"comparisons":1003112,"sorted":1}');
    const record = JSON.parse(readFileSync(r.record_path, 'utf8'));
    expect(record).toMatchObject({ ...r, elapsed_sec: expect.any(Number), error: null, paper_sha256: expect.any(String) });
    expect(record.summary).toContain('20573');
  });

  test('a rubric given: its leaves are in the agent\'s task', async () => {
    f = replicateFixture();
    seedBundle(sandbox());
    const leaf = (id: string, requirements: string) => ({ id, requirements, weight: 1, task_category: 'Code Execution', sub_tasks: [] });
    writeFileSync(join(f.ckpt, 'ors_rubric.json'), JSON.stringify({ id: 'root', requirements: 'reproduce', weight: 1, sub_tasks: [{ id: 'exec', requirements: 'runs', weight: 1, sub_tasks: [leaf('exec/best', 'The best program runs and prints 20,573 comparisons.')] }] }));
    await build({ rubric_path: 'ors_rubric.json' });
    expect(JSON.stringify(f.server.requests[0]?.body)).toContain('exec/best: The best program runs and prints 20,573 comparisons.');
  });

  test('overwrite false: an existing reproduce.sh is kept and no model is asked', async () => {
    f = replicateFixture();
    seedBundle(sandbox());
    writeFileSync(join(sandbox(), 'reproduce.sh'), 'echo mine\n');
    const r = await build();
    expect(r).toEqual({ skipped: true, reason: 'reproduce.sh already exists; overwrite is false', output_dir: sandbox(), submission_root: sandbox(), reproduce_sh: join(sandbox(), 'reproduce.sh') });
    expect(f.server.requests).toHaveLength(0);
    expect(readFileSync(join(sandbox(), 'reproduce.sh'), 'utf8')).toBe('echo mine\n');
  });

  test('overwrite true: the agent builds its own script in place of the old one', async () => {
    f = replicateFixture();
    seedBundle(sandbox());
    writeFileSync(join(sandbox(), 'reproduce.sh'), 'echo mine\n');
    const r = await build({ overwrite: true });
    expect(r.finished).toBe(true);
    expect(readFileSync(r.reproduce_sh, 'utf8')).toContain('node code/best/shell.js');
  });

  test('time_limit_sec spent: the agent is stopped, the build fails, its half-made script set aside, timed_out recorded', async () => {
    const steps: Step[] = [
      { toolCalls: [{ name: 'write_code', args: { filename: 'reproduce.sh', code: 'echo unfinished\n' } }] },
      { toolCalls: [{ name: 'run_bash', args: { command: 'sleep 20', timeout: 60 } }] },
    ];
    f = replicateFixture(steps);
    seedBundle(sandbox());
    const err = await errorOf(build({ time_limit_sec: 1 }));
    expect(err).toContain('the build ran out of time');
    expect(existsSync(join(sandbox(), 'reproduce.sh'))).toBe(false);
    expect(readFileSync(join(sandbox(), 'reproduce.sh.unfinished'), 'utf8')).toBe('echo unfinished\n');
    const record = JSON.parse(readFileSync(join(f.ckpt, 'ors_replicator.json'), 'utf8'));
    expect(record).toMatchObject({ reproduce_sh: null, finished: false, timed_out: true, files_written: ['reproduce.sh'] });
    expect(record.error).toContain('time_limit_sec=1');
  });

  test('an agent that finishes without reproduce.sh is a clear failure, recorded', async () => {
    f = replicateFixture([
      { toolCalls: [{ name: 'run_bash', args: { command: 'ls' } }] },
      { text: JSON.stringify({ status: 'success', summary: 'looked around', artifacts: [] }) },
    ]);
    seedBundle(sandbox());
    const err = await errorOf(build());
    expect(err).toContain('the agent finished without a reproduce.sh at the submission root');
    expect(existsSync(join(sandbox(), 'reproduce.sh'))).toBe(false);
    const record = JSON.parse(readFileSync(join(f.ckpt, 'ors_replicator.json'), 'utf8'));
    expect(record).toMatchObject({ reproduce_sh: null, finished: true, timed_out: false });
    expect(record.error).toContain('without a reproduce.sh');
  });

  test('max_steps spent before the agent finishes: its script is not claimed, the build fails saying so', async () => {
    f = replicateFixture();
    seedBundle(sandbox());
    // read, read, write, run: the fifth answer, the finish, is never asked for
    const err = await errorOf(build({ max_steps: 4 }));
    expect(err).toContain('the agent did not finish: it used all 4 of its steps (max_steps)');
    expect(f.server.requests).toHaveLength(4);
    const record = JSON.parse(readFileSync(join(f.ckpt, 'ors_replicator.json'), 'utf8'));
    expect(record).toMatchObject({ reproduce_sh: null, finished: false, timed_out: false, steps: 4, files_written: ['reproduce.sh'] });
  });

  test('a repository built in a nested submission/ is the submission root; a stray top-level script is ignored', async () => {
    f = replicateFixture();
    seedBundle(join(sandbox(), 'submission'));
    writeFileSync(join(sandbox(), 'reproduce.sh'), 'echo stray\n');
    const r = await build();
    const root = join(sandbox(), 'submission');
    expect(r).toMatchObject({ submission_root: root, reproduce_sh: join(root, 'reproduce.sh'), finished: true, files_written: ['submission/reproduce.sh'] });
    expect(bash(r.reproduce_sh).out).toContain('== best (code/best/shell.js)\n{"comparisons":20573,"sorted":1}');
  });

  test('apply_patch and applypatch are on the agent\'s PATH: a diff it applies makes its reproduce.sh', async () => {
    const create = ['--- /dev/null', '+++ b/reproduce.sh', '@@ -0,0 +1,2 @@', '+#!/usr/bin/env bash', '+echo first', ''].join('\n');
    const edit = ['--- a/reproduce.sh', '+++ b/reproduce.sh', '@@ -1,2 +1,2 @@', ' #!/usr/bin/env bash', '-echo first', '+node code/best/shell.js', ''].join('\n');
    f = replicateFixture([
      { toolCalls: [{ name: 'run_bash', args: { command: `applypatch <<'EOF'\n${create}EOF\ncat > fix.diff <<'EOF'\n${edit}EOF\napply_patch fix.diff && rm fix.diff` } }] },
      { toolCalls: [{ name: 'run_bash', args: { command: 'bash reproduce.sh' } }] },
      { text: JSON.stringify({ status: 'success', summary: 'patched in', artifacts: ['reproduce.sh'] }) },
    ]);
    seedBundle(sandbox());
    const r = await build();
    expect(r).toMatchObject({ reproduce_sh: join(sandbox(), 'reproduce.sh'), finished: true, steps: 3, files_written: ['reproduce.sh'] });
    expect(readFileSync(r.reproduce_sh, 'utf8')).toBe('#!/usr/bin/env bash\nnode code/best/shell.js\n');
    expect(bash(r.reproduce_sh).out).toContain('"comparisons":20573');
  });

  test('output_dir outside the checkpoint is refused before any model call', async () => {
    f = replicateFixture();
    expect(await errorOf(build({ output_dir: '../elsewhere' }))).toContain('output_dir');
    expect(await errorOf(build({ output_dir: '/tmp' }))).toContain('output_dir');
    expect(f.server.requests).toHaveLength(0);
  });

  test('no model for the replicate role: a one-line error naming SVC_MODEL_REPLICATE', async () => {
    f = replicateFixture();
    seedBundle(sandbox());
    const err = await errorOf(callTool(buildReproduceShTool, { paper_path: 'paper/paper.md' }, f.env({ SVC_BACKEND: 'providera' })));
    expect(err).toContain('no model for the replicate role');
    expect(err).toContain('SVC_MODEL_REPLICATE');
    expect(err).not.toContain('\n');
    expect(f.server.requests).toHaveLength(0);
  });

  test('sandbox_kind slurm, or docker without an image, is refused before any model call', async () => {
    f = replicateFixture();
    expect(await errorOf(build({ sandbox_kind: 'slurm' }))).toContain('sandbox_kind slurm is not one the build runs in');
    expect(await errorOf(build({ sandbox_kind: 'docker' }))).toContain('sandbox_kind docker needs an image (give container_image)');
    expect(f.server.requests).toHaveLength(0);
  });

  test('a docker daemon that cannot be reached fails loud, and runs locally with SVC_PHASE1_ALLOW_FALLBACK=1', async () => {
    f = replicateFixture();
    seedBundle(sandbox());
    const away = { DOCKER_HOST: 'unix:///nonexistent/docker.sock' };
    expect(await errorOf(build({ container_image: NODE_TEST_IMAGE }, away))).toContain('sandbox docker: the docker daemon is unreachable');
    expect(f.server.requests).toHaveLength(0);
    const r = await build({ container_image: NODE_TEST_IMAGE }, { ...away, SVC_PHASE1_ALLOW_FALLBACK: '1' });
    expect(r).toMatchObject({ sandbox_kind: 'local', finished: true });
    expect(JSON.parse(readFileSync(r.record_path, 'utf8')).sandbox_warning).toContain('running locally because SVC_PHASE1_ALLOW_FALLBACK=1');
  });

  test('container_image: the agent\'s commands run in the docker image; its reproduce.sh works there and here', async () => {
    const image = await ensureNodeImage();
    if ('reason' in image) throw new Error(`no container runtime here: ${image.reason}`);
    f = replicateFixture([{ toolCalls: [{ name: 'run_bash', args: { command: 'test -f /.dockerenv && echo inside-the-container' } }] }]);
    seedBundle(sandbox());
    const r = await build({ container_image: NODE_TEST_IMAGE });
    expect(r).toMatchObject({ sandbox_kind: 'docker', finished: true, reproduce_sh: join(sandbox(), 'reproduce.sh') });
    const trace = JSON.parse(readFileSync(r.record_path, 'utf8')).trace.join('\n');
    expect(trace).toContain('inside-the-container');
    expect(trace).toContain('comparisons');
    expect(bash(r.reproduce_sh).out).toContain('== best (code/best/shell.js)\n{"comparisons":20573,"sorted":1}');
  }, 60_000);
});
