import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DEMO_EXPERIMENT, DEMO_MODEL, DEMO_WORKFLOW } from '../../scripts/record-demo.ts';
import { startModelServer } from '../support/model-server.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { lacks, smallDisk } from '../support/components.ts';
import { type OpenAIChatRequest, researcherReply } from '../support/scripted-researcher.ts';
import { removeDir, SVC, svc, tempDir } from '../support/svc.ts';

// svc run and svc resume from the outside: bad input is one line and leaves nothing behind; a
// model that cannot be reached stops the run, which resumes once it can.

let dir: string;
beforeEach(() => {
  dir = tempDir('svc-run-cli-');
});
afterEach(() => removeDir(dir));

const server = startModelServer([], { respond: (body) => ({ ...researcherReply(body as OpenAIChatRequest), delayMs: 30 }) });
afterAll(() => server.stop());

const modelEnv = (base = `${server.url}/v1`) => ({ SVC_ROOT: dir, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: base, SVC_MODEL: DEMO_MODEL });
const checkpoints = () => {
  const root = join(dir, 'workspace', 'checkpoints');
  return existsSync(root) ? readdirSync(root) : [];
};
const oneLine = (text: string) => text.trim().split('\n').filter((l) => l.startsWith('svc: ') || l.startsWith('  ')).length >= 1 && !text.includes('    at ');

describe('bad input: one clear line, nothing created', () => {
  test('a missing, empty or directory experiment file', async () => {
    const missing = await svc(['run', 'nope.md'], { cwd: dir, env: { SVC_ROOT: dir } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`experiment file nope.md does not exist`);
    writeFileSync(join(dir, 'empty.md'), '  \n');
    const empty = await svc(['run', 'empty.md'], { cwd: dir, env: { SVC_ROOT: dir } });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('experiment file empty.md is empty');
    mkdirSync(join(dir, 'adir.md'));
    expect((await svc(['run', 'adir.md'], { cwd: dir, env: { SVC_ROOT: dir } })).stderr).toContain('is a directory');
    expect(checkpoints()).toEqual([]);
  });

  test('an unknown profile, a bad multi-agent number, a missing cassette', async () => {
    const profile = await svc(['run', DEMO_EXPERIMENT, '--profile', 'desktop'], { cwd: dir, env: { SVC_ROOT: dir } });
    expect(profile.code).toBe(2);
    expect(profile.stderr).toContain("unknown profile 'desktop'");
    const ma = await svc(['run', DEMO_EXPERIMENT, '--ma-k', 'two'], { cwd: dir, env: { SVC_ROOT: dir } });
    expect(ma.stderr).toContain("--ma-k must be a positive whole number, got 'two'");
    const replay = await svc(['run', DEMO_EXPERIMENT, '--replay', 'gone.jsonl'], { cwd: dir, env: { SVC_ROOT: dir } });
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain(`no cassette at ${join(dir, 'gone.jsonl')}`);
    expect(checkpoints()).toEqual([]);
  });

  test('an executor or container that cannot run here fails before anything is created, naming the override', async () => {
    const bare = join(dir, 'bare-path');
    mkdirSync(bare);
    const slurm = await svc(['run', DEMO_EXPERIMENT], { cwd: dir, env: { ...modelEnv(), PATH: bare, SVC_EXECUTOR: 'slurm' } });
    expect(slurm.code).not.toBe(0);
    expect(slurm.stderr).toBe('svc: sandbox slurm: sbatch is not installed (set SVC_PHASE1_ALLOW_FALLBACK=1 to run locally instead)\n');
    const container = await svc(['run', DEMO_EXPERIMENT], { cwd: dir, env: { ...modelEnv(), PATH: bare, SVC_CONTAINER_IMAGE: 'busybox:1.36' } });
    expect(container.stderr).toContain('svc: container image busybox:1.36: no container runtime here');
    expect(checkpoints()).toEqual([]);
  });

  test('a select prompt template that does not exist fails before anything is created', async () => {
    writeFileSync(join(dir, 'wf.yaml'), 'bfts:\n  select_prompt: prompts/mine.md\n');
    const r = await svc(['run', DEMO_EXPERIMENT, '--config', 'wf.yaml'], { cwd: dir, env: modelEnv() });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`bfts.select_prompt 'prompts/mine.md' is neither a bundled prompt nor a file (looked for ${join(dir, 'prompts/mine.md')})`);
    expect(oneLine(r.stderr)).toBe(true);
    expect(checkpoints()).toEqual([]);
    // a template without its placeholders is refused the same way
    mkdirSync(join(dir, 'prompts'));
    writeFileSync(join(dir, 'prompts/mine.md'), 'pick one of {candidates}');
    const r2 = await svc(['run', DEMO_EXPERIMENT, '--config', 'wf.yaml'], { cwd: dir, env: modelEnv() });
    expect(r2.stderr).toContain('lacks the placeholders {experiment_goal}, {memory_context}');
    expect(checkpoints()).toEqual([]);
  });

  test('a library that is missing or not BibTeX fails before anything is created; a prepared checkpoint is checked with its own workflow', async () => {
    writeFileSync(join(dir, 'wf.yaml'), 'retrieval:\n  library: refs/mine.bib\n');
    const missing = await svc(['run', DEMO_EXPERIMENT, '--config', 'wf.yaml'], { cwd: dir, env: modelEnv() });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`svc: retrieval.library: cannot read the library ${join(dir, 'refs/mine.bib')}: ENOENT`);
    expect(oneLine(missing.stderr)).toBe(true);
    mkdirSync(join(dir, 'refs'));
    writeFileSync(join(dir, 'refs/mine.bib'), '@article{a, title={A}\n\n');
    const broken = await svc(['run', DEMO_EXPERIMENT, '--config', 'wf.yaml'], { cwd: dir, env: modelEnv() });
    expect(broken.stderr).toContain(`svc: retrieval.library: the library ${join(dir, 'refs/mine.bib')}:1:1 is not valid BibTeX`);
    expect(checkpoints()).toEqual([]);
    // the dashboard's way: a checkpoint prepared with its workflow; its library is what counts, not --config's
    const ck = join(dir, 'prepared');
    mkdirSync(ck);
    writeFileSync(join(ck, 'workflow.yaml'), 'retrieval:\n  library: library.bib\n');
    const prepared = await svc(['run', DEMO_EXPERIMENT, '--config', 'wf.yaml'], { cwd: dir, env: { ...modelEnv(), SVC_CHECKPOINT_DIR: ck } });
    expect(prepared.stderr).toContain(`svc: retrieval.library: cannot read the library ${join(ck, 'library.bib')}: ENOENT`);
    expect(readdirSync(ck)).toEqual(['workflow.yaml']);
  });

  test('SVC_CHECKPOINT_DIR naming a checkpoint that already holds a run', async () => {
    const ck = join(dir, 'workspace', 'checkpoints', 'old');
    mkdirSync(ck, { recursive: true });
    writeFileSync(join(ck, 'tree.json'), '{"nodes":[]}');
    const r = await svc(['run', DEMO_EXPERIMENT], { cwd: dir, env: { ...modelEnv(), SVC_CHECKPOINT_DIR: ck } });
    expect(r.code).toBe(1); // a conflict, not a typo
    expect(r.stderr).toContain(`${ck} already holds a run`);
    expect(readFileSync(join(ck, 'tree.json'), 'utf8')).toBe('{"nodes":[]}');
  });

  test('resume: an unknown checkpoint, and one another process is running', async () => {
    const unknown = await svc(['resume', 'nothing_here'], { cwd: dir, env: { SVC_ROOT: dir } });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('nothing_here');
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    const ck = join(dir, 'workspace', 'checkpoints', 'busy');
    mkdirSync(ck, { recursive: true });
    writeFileSync(join(ck, 'experiment.md'), 'goal');
    writeFileSync(join(ck, '.svc_pid'), `${process.pid}\n`); // this test process: alive
    const busy = await svc(['resume', ck], { cwd: dir, env: { SVC_ROOT: dir } });
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain(`${ck} is being run by process ${process.pid}`);
    expect(readFileSync(join(ck, '.svc_pid'), 'utf8')).toBe(`${process.pid}\n`);
  });
});

test('a template file named in --config travels with the checkpoint; a resume says it does not use another --config', async () => {
  mkdirSync(join(dir, 'cfg', 'tpl'), { recursive: true });
  // the bundled selector, as a file: the replayed requests stay the same
  writeFileSync(join(dir, 'cfg', 'tpl', 'select.md'), readFileSync(join(import.meta.dir, '../../src/prompts/orchestrator/bfts_select.md'), 'utf8'));
  writeFileSync(join(dir, 'cfg', 'wf.yaml'), readFileSync(DEMO_WORKFLOW, 'utf8').replace(/^bfts:\n/m, 'bfts:\n  select_prompt: tpl/select.md\n'));
  copyFileSync(join(dirname(DEMO_WORKFLOW), 'library.bib'), join(dir, 'cfg', 'library.bib'));
  const r = await svc(['run', DEMO_EXPERIMENT, '--config', 'cfg/wf.yaml'], { cwd: dir, env: modelEnv() });
  expect(r.code, r.stderr).toBe(0);
  const ck = join(dir, 'workspace', 'checkpoints', checkpoints()[0] ?? '');
  expect(readFileSync(join(ck, 'workflow.yaml'), 'utf8')).toContain('select_prompt: prompts/bfts_select_prompt.md');
  writeFileSync(join(dir, 'other.yaml'), 'bfts:\n  max_nodes: 9\n');
  // resumed from elsewhere, where tpl/select.md means nothing
  const resumed = await svc(['resume', ck, '--config', join(dir, 'other.yaml')], { cwd: '/', env: { ...modelEnv(), HOME: dir } });
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stderr).toContain(`--config ${join(dir, 'other.yaml')} is not used: the checkpoint's workflow.yaml is`);
  expect(resumed.stdout).toStartWith(`nothing to resume: run ${basename(ck)} is finished (5 nodes, none pending or failed)\ncheckpoint: ${ck}\n`);
  expect(JSON.parse(readFileSync(join(ck, 'tree.json'), 'utf8')).nodes).toHaveLength(5);
}, 60_000);

test('resume of a finished checkpoint written by the reference (no experiment.md): exit 0, naming the run, nothing changed', async () => {
  const ck = writeCheckpoint(join(dir, 'workspace', 'checkpoints'), { runId: '20261101140000_reference_run', nodes: 3 });
  rmSync(join(ck, 'experiment.md'));
  const before = readFileSync(join(ck, 'tree.json'), 'utf8');
  const r = await svc(['resume', ck], { cwd: dir, env: { SVC_ROOT: dir } });
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toStartWith('nothing to resume: run 20261101140000_reference_run is finished (3 nodes, none pending or failed)\n');
  expect(readFileSync(join(ck, 'tree.json'), 'utf8')).toBe(before);
  expect(existsSync(join(ck, '.svc_pid'))).toBe(false);
});

describe('a model that cannot be reached', () => {
  test('at the start: one line naming the address and the fix, before anything is created', async () => {
    const r = await svc(['run', DEMO_EXPERIMENT, '--config', DEMO_WORKFLOW], { cwd: dir, env: modelEnv('http://127.0.0.1:9/v1') });
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe('svc: no model backend reachable at http://127.0.0.1:9/v1 (openai-compatible; llm.base_url or LLM_API_BASE) (start the server, or set llm.base_url or LLM_API_BASE to where it listens)');
    expect(checkpoints()).toEqual([]);
  });

  test('gone in the middle: the run stops with one line, and resumed with the model back, it finishes', async () => {
    const respond = (body: Record<string, unknown>) => ({ ...researcherReply(body as OpenAIChatRequest), delayMs: 30 });
    let model = startModelServer([], { respond });
    const env = { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1', ...modelEnv(`${model.url}/v1`), SVC_LLM_MAX_RETRIES: '0' };
    const run = Bun.spawn([SVC, 'run', DEMO_EXPERIMENT, '--config', DEMO_WORKFLOW], { cwd: dir, env, stdout: 'pipe', stderr: 'pipe' });
    while (model.requests.length < 12) await Bun.sleep(20); // ideas done, the search under way
    model.stop();
    const [err, code] = await Promise.all([new Response(run.stderr).text(), run.exited]);
    expect(code).not.toBe(0);
    expect(err).toContain(`svc: no model backend reachable at ${model.url}/v1`);
    expect(err).toContain('continue with svc resume');
    const [id] = checkpoints();
    const ck = join(dir, 'workspace', 'checkpoints', id ?? '');
    const tree = JSON.parse(readFileSync(join(ck, 'tree.json'), 'utf8')) as { nodes: { status: string }[] };
    expect(tree.nodes.length).toBeLessThan(5); // no fallback children for a missing model
    expect(existsSync(join(ck, '.svc_pid'))).toBe(false);

    model = startModelServer([], { respond, port: model.port });
    try {
      const resumed = await svc(['resume', ck], { cwd: dir, env: modelEnv(`${model.url}/v1`) });
      expect(resumed.code, resumed.stderr).toBe(0);
      const after = JSON.parse(readFileSync(join(ck, 'tree.json'), 'utf8')) as { nodes: { status: string }[] };
      expect(after.nodes).toHaveLength(5);
      expect(after.nodes.every((n) => n.status === 'success')).toBe(true);
    } finally {
      model.stop();
    }
  }, 120_000);

  test('failing at its very start (memory cannot be kept): one line, and no directory that is not a checkpoint is left', async () => {
    // a home that is a file: the run's memory database cannot be made under it
    writeFileSync(join(dir, 'home-file'), '');
    const r = await svc(['run', DEMO_EXPERIMENT, '--config', DEMO_WORKFLOW], { cwd: dir, env: { ...modelEnv(), HOME: join(dir, 'home-file') } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('nothing of the run was kept');
    expect(r.stderr).toContain(join(dir, 'home-file'));
    expect(checkpoints()).toEqual([]);
  });

  test('a hosted backend without its key: one line naming the variable', async () => {
    const r = await svc(['run', DEMO_EXPERIMENT, '--config', DEMO_WORKFLOW], { cwd: dir, env: { SVC_ROOT: dir, SVC_BACKEND: 'providera', SVC_MODEL: 'gpt-4o-mini' } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('PROVIDERA_API_KEY is not set');
  }, 60_000);
});

test('svc status shows the live tree while the run writes it', async () => {
  const slow = startModelServer([], { respond: (body) => ({ ...researcherReply(body as OpenAIChatRequest), delayMs: 150 }) });
  try {
    const env = { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1', ...modelEnv(`${slow.url}/v1`) };
    const run = Bun.spawn([SVC, 'run', DEMO_EXPERIMENT, '--config', DEMO_WORKFLOW], { cwd: dir, env, stdout: 'ignore', stderr: 'ignore' });
    let seen = '';
    for (let i = 0; i < 300 && !seen; i++) {
      await Bun.sleep(100);
      const [id] = checkpoints();
      if (!id || !existsSync(join(dir, 'workspace', 'checkpoints', id, 'tree.json'))) continue;
      const s = await svc(['status', id], { cwd: dir, env: { SVC_ROOT: dir } });
      if (s.stdout.includes(`running (pid ${run.pid})`) && /\n.*node_/.test(s.stdout)) seen = s.stdout;
    }
    expect(seen).toMatch(/nodes: \d+ total/);
    expect(await run.exited).toBe(0);
    const [id] = checkpoints();
    const done = await svc(['status', id ?? ''], { cwd: dir, env: { SVC_ROOT: dir } });
    expect(done.stdout).toContain('done');
    expect(done.stdout).toContain('nodes: 5 total, 5 success');
  } finally {
    slow.stop();
  }
}, 120_000);

describe('where a run writes', () => {
  const cassette = join(import.meta.dir, '../../examples/demo/cassette.jsonl');

  test('a marker planted above home does not count: the run writes below the working directory, and says where first', async () => {
    const home = join(dir, 'home', 'ada');
    const project = join(home, 'sorting');
    mkdirSync(project, { recursive: true });
    mkdirSync(join(dir, '.svc'));
    mkdirSync(join(dir, 'workspace'));
    const r = await svc(['run', DEMO_EXPERIMENT, '--config', DEMO_WORKFLOW, '--replay', cassette], { cwd: project, env: { HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    const runs = readdirSync(join(project, 'workspace', 'checkpoints'));
    expect(runs).toHaveLength(1);
    expect(r.stderr.split('\n')[0]).toBe(`svc: run ${join(project, 'workspace', 'checkpoints', runs[0] ?? '')}`);
    expect(readdirSync(join(dir, 'workspace'))).toEqual([]);
  }, 60_000);

  test('run from / with no project: refused in one line, and nothing is made in /', async () => {
    const before = readdirSync('/').sort();
    const r = await svc(['run', DEMO_EXPERIMENT, '--config', DEMO_WORKFLOW, '--replay', cassette], { cwd: '/', env: { HOME: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('svc: svc will not create /workspace: / is a system directory (run svc from your project directory, or point SVC_ROOT (and HOME) at one)\n');
    expect(readdirSync('/').sort()).toEqual(before);
  });
});

describe('a replay runs under the workflow its cassette carries', () => {
  const cassette = join(import.meta.dir, '../../examples/demo/cassette.jsonl');

  test('the README command: no --config, the demo replays to its five nodes with the demo workflow', async () => {
    const r = await svc(['run', DEMO_EXPERIMENT, '--replay', cassette], { cwd: dir, env: { SVC_ROOT: dir } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('nodes: 5 (5 success, 0 failed)');
    const ck = join(dir, 'workspace', 'checkpoints', checkpoints()[0] ?? '');
    expect(readFileSync(join(ck, 'workflow.yaml'), 'utf8')).toBe(readFileSync(DEMO_WORKFLOW, 'utf8'));
  }, 60_000);

  test.each(['abc', 'run'])('into a checkpoint with a short name (SVC_CHECKPOINT_DIR=.../%s), the replay matches the recording all through', async (name) => {
    const ck = join(dir, 'runs', name);
    const r = await svc(['run', DEMO_EXPERIMENT, '--replay', cassette], { cwd: dir, env: { SVC_ROOT: dir, SVC_CHECKPOINT_DIR: ck } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('nodes: 5 (5 success, 0 failed)');
  }, 60_000);

  test('under another workflow it is refused in one line before anything is created', async () => {
    writeFileSync(join(dir, 'other.yaml'), 'bfts:\n  max_nodes: 9\n');
    const r = await svc(['run', DEMO_EXPERIMENT, '--config', 'other.yaml', '--replay', cassette], { cwd: dir, env: { SVC_ROOT: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toStartWith(`svc: the cassette ${cassette} was recorded with another workflow (sha256 `);
    expect(r.stderr).toEndWith('(replay it with the workflow it carries: leave out --config)\n');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'workspace'))).toBe(false);
  });
});

test.skipIf(lacks('tmpfs'))('a disk that fills up during the run: it stops naming the file it could not write, never as a failed model call', async () => {
  const disk = smallDisk(dir, 100);
  try {
    const cassette = join(import.meta.dir, '../../examples/demo/cassette.jsonl');
    const r = await svc(['run', DEMO_EXPERIMENT, '--replay', cassette], { cwd: dir, env: { SVC_ROOT: dir, SVC_CHECKPOINT_DIR: join(disk.dir, 'run') } });
    expect(r.code).toBe(1);
    const last = r.stderr.trim().split('\n').at(-1) ?? '';
    expect(last).toMatch(new RegExp(`^svc: cannot write ${disk.dir}/\\S+: no space left on device \\(ENOSPC\\) \\(free some disk space and try again\\)$`));
    expect(r.stderr).not.toContain('the model call failed: cannot write');
  } finally {
    disk.remove();
  }
}, 60_000);
