// The run lifecycle API of the dashboard over HTTP, against the built binary: launch, run-stage,
// stop, sub-experiments and lineage decisions. The launched `svc run` has no model to reach, so
// these tests assert what holds however it ends; a run kept alive is tested in unit/run.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

let dir: string;
let root: string;
let viz: Viz | undefined;
const strays: Bun.Subprocess[] = [];
beforeEach(() => {
  dir = tempDir();
  root = join(dir, 'workspace', 'checkpoints');
  mkdirSync(root, { recursive: true });
});
afterEach(async () => {
  // a run still going is stopped through the API, the only way the test may signal it
  if (viz) {
    await viz.post('/api/stop');
    await viz.stop();
  }
  viz = undefined;
  for (const p of strays.splice(0)) {
    p.kill('SIGKILL');
    await p.exited;
  }
  removeDir(dir);
});

/** Nothing listens on port 9: a model call fails at once instead of waiting. */
const NO_MODEL = { SVC_BACKEND: 'openai-compatible', LLM_API_BASE: 'http://127.0.0.1:9/v1', SVC_MODEL: 'none', SVC_LLM_MAX_RETRIES: '0', SVC_LLM_TIMEOUT_S: '5' };

async function start(args: string[] = [join(dir, 'workspace')]): Promise<Viz> {
  viz = await startViz(args, { cwd: dir, env: NO_MODEL });
  return viz;
}

/** Polls /state until the dashboard's run has an exit code, stopping it when it runs on. */
async function exitCodeOf(v: Viz): Promise<number> {
  for (let i = 0; i < 300; i++) {
    const { body } = await v.get('/state');
    if (body.exit_code !== null) return body.exit_code;
    if (i === 200) await v.post('/api/stop');
    await Bun.sleep(100);
  }
  throw new Error('the run never ended');
}

describe('POST /api/launch', () => {
  test('every bad field is named in one 400, and nothing is created', async () => {
    const v = await start();
    const { status, body } = await v.post('/api/launch', { experiment_md: '', profile: 'desktop', max_nodes: 0, max_depth: 'x', workers: -1, provider: 'skynet', model: '', extra: 1 });
    expect(status).toBe(400);
    for (const f of ['experiment_md', 'profile', 'max_nodes', 'max_depth', 'workers', 'provider', 'model', "unknown field 'extra'"]) expect(body.error).toContain(f);
    expect(readdirSync(root)).toEqual([]);
  });

  test('a body that is not JSON is 400; one over the size limit is 413', async () => {
    const v = await start();
    const bad = await v.req('/api/launch', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"experiment_md": ' });
    expect(bad.status).toBe(400);
    const big = await v.req('/api/launch', { json: { experiment_md: 'x'.repeat(11 * 1024 * 1024) } });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: string }).error).toContain('too large');
  });

  test('starts svc run on a new checkpoint: {ok, pid, checkpoint_path}, launch_config.json, its log, its exit code in /state', async () => {
    const v = await start();
    const { status, body } = await v.post('/api/launch', { experiment_md: '# Goal\nFaster stencil kernels', max_nodes: 3, max_depth: 2, workers: 1, model: 'tiny', provider: 'openai-compatible', profile: 'laptop' });
    expect(status).toBe(200);
    const ck: string = body.checkpoint_path;
    expect(Object.keys(body).sort()).toEqual(['checkpoint_path', 'ok', 'pid', 'run_id']);
    expect(body.ok).toBe(true);
    expect(Number.isInteger(body.pid)).toBe(true);
    expect(ck).toMatch(/\/\d{14}_faster_stencil_kernels$/);
    expect(ck.startsWith(`${root}/`)).toBe(true);
    expect(readFileSync(join(ck, 'experiment.md'), 'utf8')).toBe('# Goal\nFaster stencil kernels');
    expect(JSON.parse(readFileSync(join(ck, 'launch_config.json'), 'utf8'))).toMatchObject({ llm_model: 'tiny', llm_provider: 'openai-compatible', profile: 'laptop', max_nodes: 3, max_depth: 2, parallel: 1, launched_by: 'dashboard' });
    expect(readdirSync(ck).some((f) => /^svc_run_\d+\.log$/.test(f))).toBe(true);
    // the dashboard follows the run it started
    expect((await v.get('/api/active-checkpoint')).body.path ?? (await v.get('/state')).body.checkpoint_path).toBe(ck);
    const code = await exitCodeOf(v);
    expect(Number.isInteger(code)).toBe(true);
    const after = (await v.get('/state')).body;
    expect(after).toMatchObject({ is_running: false, pid: null, exit_code: code, checkpoint_path: ck });
  });
});

describe('POST /api/stop', () => {
  test('with no run started by this dashboard: 404, and a PID in .svc_pid is never signalled', async () => {
    const foreign = Bun.spawn(['sleep', '30']);
    strays.push(foreign);
    const ck = writeCheckpoint(root);
    writeFileSync(join(ck, '.svc_pid'), `${foreign.pid}\n`);
    const v = await start([ck]);
    expect((await v.get('/state')).body).toMatchObject({ is_running: true, pid: foreign.pid });
    const { status, body } = await v.post('/api/stop');
    expect(status).toBe(404);
    expect(body.error).toContain('no run was started by this dashboard');
    await Bun.sleep(100);
    expect(foreign.exitCode).toBeNull();
    expect(foreign.killed).toBe(false);
  });
});

describe('POST /api/run-stage', () => {
  test('a post-search stage runs svc paper on the selected checkpoint; an unknown stage is 400 naming the known ones', async () => {
    const ck = writeCheckpoint(root);
    const v = await start([ck]);
    const r = await v.post('/api/run-stage', { stage: 'ear_curate' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, pid: expect.any(Number), checkpoint_path: ck, stage: 'ear_curate' });
    expect(await exitCodeOf(v)).toBe(0);
    const unknown = await v.post('/api/run-stage', { stage: 'compile' });
    expect(unknown.status).toBe(400);
    for (const s of ['bfts', 'resume', 'generate_idea', 'paper']) expect(unknown.body.error).toContain(s);
    expect((await v.post('/api/run-stage', {})).status).toBe(400);
  });

  test("write_paper on a checkpoint with the demo's data runs svc paper --stage write_paper", async () => {
    // the offline demo's checkpoint (science data, figures, references), its paper deleted
    const demo = Bun.spawn([SVC, 'run', 'examples/demo/experiment.md', '--replay', 'examples/demo/cassette.jsonl'], {
      cwd: resolve(import.meta.dir, '..', '..'),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, NO_COLOR: '1', SVC_ROOT: dir },
      stdout: 'ignore',
      stderr: 'pipe',
      stdin: 'ignore',
    });
    strays.push(demo);
    expect(await demo.exited, await new Response(demo.stderr).text()).toBe(0);
    const [run] = readdirSync(root);
    const ck = join(root, run ?? '');
    for (const f of ['science_data.json', 'figures_manifest.json', 'related_refs.json']) expect(existsSync(join(ck, f))).toBe(true);
    for (const f of ['full_paper.tex', 'full_paper.pdf']) rmSync(join(ck, f), { force: true });
    const v = await start([ck]);
    const r = await v.post('/api/run-stage', { stage: 'write_paper' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, pid: expect.any(Number), checkpoint_path: ck, stage: 'write_paper' });
    // no model answers here: however the stage ends, the run it started does end
    expect(Number.isInteger(await exitCodeOf(v))).toBe(true);
  }, 120_000);

  test('bfts resumes the selected checkpoint with svc resume, its launch choices in the environment', async () => {
    const ck = writeCheckpoint(root, { extra: {} });
    writeFileSync(join(ck, 'launch_config.json'), JSON.stringify({ llm_model: 'resumed-model', max_nodes: 4 }));
    const v = await start([ck]);
    const r = await v.post('/api/run-stage', { stage: 'bfts' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, pid: expect.any(Number), checkpoint_path: ck, stage: 'resume' });
    expect(Number.isInteger(await exitCodeOf(v))).toBe(true);
  });

  test('without a selected checkpoint: 409', async () => {
    const v = await start();
    const r = await v.post('/api/run-stage', { stage: 'bfts' });
    expect(r.status).toBe(409);
    expect(r.body.error).toContain('no active checkpoint');
  });
});

describe('sub-experiments and lineage decisions', () => {
  const PARENT = '20261101120000_generated_run';

  function parentWithIdeas(): string {
    const ck = writeCheckpoint(root, { runId: PARENT });
    writeFileSync(join(ck, 'idea.json'), JSON.stringify({ ideas: [{ title: 'a' }, { title: 'b' }], primary_metric: 'gflops' }));
    return ck;
  }

  test('launch a child with a pinned idea; list it; read it; unknown 404; a path as id 400', async () => {
    parentWithIdeas();
    const v = await start();
    const launched = await v.post('/api/sub-experiments/launch', { parent_run_id: PARENT, inherit_idea_index: 1, max_nodes: 2 });
    expect(launched.status).toBe(200);
    expect(launched.body).toMatchObject({ ok: true, parent_run_id: PARENT, recursion_depth: 1, max_recursion_depth: 3 });
    const child = launched.body.run_id;
    const idea = JSON.parse(readFileSync(join(root, child, 'idea.json'), 'utf8'));
    expect(idea.ideas).toEqual([{ title: 'b', _pinned: true }]);
    expect(idea._inherited_from).toEqual({ parent_run_id: PARENT, index: 1 });

    const all = await v.get('/api/sub-experiments');
    expect(all.status).toBe(200);
    expect(all.body.map((r: { run_id: string }) => r.run_id)).toEqual([child]);
    const one = await v.get(`/api/sub-experiments/${child}`);
    expect(one.body).toMatchObject({ run_id: child, parent_run_id: PARENT, recursion_depth: 1, inherit_idea_index: 1 });
    expect((await v.get('/api/sub-experiments/20990101000000_nothing')).status).toBe(404);
    expect((await v.get(`/api/sub-experiments/${PARENT}`)).status).toBe(404);
    // (a bare `..` never arrives: the client resolves it away before sending)
    for (const bad of ['..%2F..%2Fetc', 'a%2Fb', '..%5C..%5Cx', '.hidden', 'x%00y']) {
      const r = await v.get(`/api/sub-experiments/${bad}`);
      expect([r.status, bad]).toEqual([400, bad]);
      expect(r.body.error).toContain('invalid run id');
    }
  });

  test('past the recursion limit: 409, clear, nothing created; a bad index: 400', async () => {
    const ck = parentWithIdeas();
    writeFileSync(join(ck, 'meta.json'), JSON.stringify({ run_id: PARENT, parent_run_id: 'grand', recursion_depth: 3, max_recursion_depth: 3 }));
    const v = await start();
    const before = readdirSync(root).length;
    const refused = await v.post('/api/sub-experiments/launch', { parent_run_id: PARENT });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('past max_recursion_depth 3');
    expect(readdirSync(root).length).toBe(before);
    const badIndex = await v.post('/api/sub-experiments/launch', { parent_run_id: PARENT, inherit_idea_index: 'one' });
    expect(badIndex.status).toBe(400);
    expect(badIndex.body.error).toContain('inherit_idea_index');
  });

  test('lineage decisions: the parsed lines, a torn last line left out, [] when none, ids checked', async () => {
    const ck = writeCheckpoint(root, { runId: PARENT });
    const v = await start();
    expect((await v.get(`/api/lineage-decisions/${PARENT}`)).body).toEqual([]);
    const d = { ts: 1, trigger: 'stagnation_rule', executed: true, decision: { action: 'switch_to_idea', target_idea_index: 1 } };
    writeFileSync(join(ck, 'lineage_decisions.jsonl'), `${JSON.stringify(d)}\n{"ts": 2, "trig`);
    const r = await v.get(`/api/lineage-decisions/${PARENT}`);
    expect(r).toEqual({ status: 200, body: [d] });
    expect((await v.get('/api/lineage-decisions/20990101000000_nothing')).status).toBe(404);
    expect((await v.get('/api/lineage-decisions/..%2F..%2Fetc')).status).toBe(400);
    expect(existsSync(join(dir, 'etc'))).toBe(false);
  });
});
