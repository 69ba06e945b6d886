import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConflictError, InputError, NotFoundError } from '../../../src/core/errors.ts';
import { launchRun } from '../../../src/run/launch.ts';
import { launchConfigEnv } from '../../../src/run/run-env.ts';
import { spawnRun } from '../../../src/run/spawn-run.ts';
import { RunSupervisor } from '../../../src/run/supervisor.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { alive, cmdlineOf, endStarted, environOf, host, pgidOf, standInProgram, until } from './helpers.ts';

let dir: string;
let root: string;
const supervisors: RunSupervisor[] = [];
const strays: Bun.Subprocess[] = [];
beforeEach(() => {
  dir = tempDir();
  root = join(dir, 'workspace', 'checkpoints');
});
afterEach(async () => {
  await endStarted(supervisors, strays);
  removeDir(dir);
});

function hostFor(extra: Parameters<typeof host>[2] = {}) {
  const h = host(dir, root, extra);
  supervisors.push(h.supervisor);
  return h;
}

const sleeperPid = () => Number(readFileSync(join(dir, 'sleeper.pid'), 'utf8'));

describe('launchRun', () => {
  test('choices are in the child environment and in launch_config.json, never on its command line', async () => {
    const h = hostFor({ env: { PATH: process.env.PATH ?? '', HOME: dir, PROVIDERA_API_KEY: 'sk-secret-value-123', SVC_CHECKPOINT_DIR: '/elsewhere/run', SVC_GUI_TOKEN: 'dashboard-token' } });
    const body = { experiment_md: '# Goal\nMake the stencil faster', profile: 'laptop', provider: 'openai-compatible', model: 'qwen3-coder', max_nodes: 7, max_depth: 3, workers: 2 };
    const r = await launchRun({ ...h, body });
    expect(r.ok).toBe(true);
    expect(r.checkpoint_path).toBe(join(root, r.run_id));
    expect(r.run_id).toMatch(/^\d{14}_make_the_stencil_faster$/);

    // the command line is the program, `run` and the path: nothing else
    expect(await cmdlineOf(r.pid)).toEqual([...(h.program ?? []), 'run', join(r.checkpoint_path, 'experiment.md')]);

    const env = await environOf(r.pid);
    expect(env).toMatchObject({
      SVC_CHECKPOINT_DIR: r.checkpoint_path,
      SVC_MODEL: 'qwen3-coder',
      SVC_BACKEND: 'openai-compatible',
      SVC_MAX_NODES: '7',
      SVC_MAX_DEPTH: '3',
      SVC_PARALLEL: '2',
      SVC_PROFILE: 'laptop',
      // the run needs the keys of the launcher's environment
      PROVIDERA_API_KEY: 'sk-secret-value-123',
    });

    expect(env.SVC_GUI_TOKEN).toBeUndefined();
    expect(readFileSync(join(r.checkpoint_path, 'experiment.md'), 'utf8')).toBe(body.experiment_md);
    const cfg = JSON.parse(readFileSync(join(r.checkpoint_path, 'launch_config.json'), 'utf8'));
    expect(cfg).toMatchObject({ llm_model: 'qwen3-coder', llm_provider: 'openai-compatible', profile: 'laptop', max_nodes: 7, max_depth: 3, parallel: 2, launched_by: 'dashboard' });
    for (const key of ['max_react', 'timeout_node_s', 'frontier_score', 'composite', 'axis_mode', 'allow_web', 'include_ear', 'include_review', 'include_reproduce']) expect(cfg).toHaveProperty(key);
    for (const f of readdirSync(r.checkpoint_path)) expect(readFileSync(join(r.checkpoint_path, f), 'utf8')).not.toContain('sk-secret-value-123');

    // detached: it leads its own process group, the one stop signals
    expect(pgidOf(r.pid)).toBe(r.pid);
    expect(pgidOf(r.pid)).not.toBe(pgidOf(process.pid));
    // its output goes to svc_run_<epoch>.log in the checkpoint
    expect(readdirSync(r.checkpoint_path).some((f) => /^svc_run_\d+\.log$/.test(f))).toBe(true);
    expect(h.supervisor.forCheckpoint(r.checkpoint_path)?.pid).toBe(r.pid);
  });

  test("the multi-agent idea engine's fields become its SVC_IDEA_MA_* variables, in launch_config.json under their names, and come back on resume", async () => {
    const h = hostFor();
    const body = { experiment_md: '# Goal\nIdeas by teams', vir_sci_real: true, vir_sci_k: 2, vir_sci_team_size: 3, vir_sci_n_authors: 6, vir_sci_n_papers: 40 };
    const r = await launchRun({ ...h, body });
    const ma = { SVC_IDEA_MA_REAL: '1', SVC_IDEA_MA_K: '2', SVC_IDEA_MA_TEAM_SIZE: '3', SVC_IDEA_MA_N_AUTHORS: '6', SVC_IDEA_MA_N_PAPERS: '40' };
    expect(await environOf(r.pid)).toMatchObject(ma);
    const cfg = JSON.parse(readFileSync(join(r.checkpoint_path, 'launch_config.json'), 'utf8'));
    expect(cfg).toMatchObject({ vir_sci_real: true, vir_sci_k: 2, vir_sci_team_size: 3, vir_sci_n_authors: 6, vir_sci_n_papers: 40 });
    expect(launchConfigEnv(cfg)).toMatchObject(ma);
    // switched off is said as such
    expect(launchConfigEnv({ vir_sci_real: false } as never)).toEqual({ SVC_IDEA_MA_REAL: '0' });
  });

  test('a key or password in the API base URL stays out of launch_config.json', async () => {
    const base = 'https://user:pw-secret-456@llm.example/v1?api-key=sk-query-789';
    const h = hostFor({ env: { PATH: process.env.PATH ?? '', HOME: dir, LLM_API_BASE: base } });
    const r = await launchRun({ ...h, body: { experiment_md: 'goal', provider: 'openai-compatible', model: 'm' } });
    const text = readFileSync(join(r.checkpoint_path, 'launch_config.json'), 'utf8');
    expect(text).not.toContain('pw-secret-456');
    expect(text).not.toContain('sk-query-789');
    expect(JSON.parse(text).llm_base_url).toBe('https://llm.example/v1');
    // the run itself still gets the URL it was given, and so does a resume from the same launcher
    expect((await environOf(r.pid)).LLM_API_BASE).toBe(base);
    const record = JSON.parse(text);
    expect(launchConfigEnv(record, { LLM_API_BASE: base }).LLM_API_BASE).toBe(base);
    expect(launchConfigEnv(record, { LLM_API_BASE: 'https://other.example/v1?k=1' }).LLM_API_BASE).toBe('https://llm.example/v1');
  });

  test('unset choices take the configuration and profile into launch_config.json, and stay out of the environment', async () => {
    const h = hostFor();
    const r = await launchRun({ ...h, body: { experiment_md: 'goal', profile: 'hpc' } });
    const cfg = JSON.parse(readFileSync(join(r.checkpoint_path, 'launch_config.json'), 'utf8'));
    // the hpc profile's values, and the workflow's for the rest
    expect(cfg).toMatchObject({ profile: 'hpc', max_nodes: 20, parallel: 4, max_depth: 5, executor: 'slurm', hpc_cpus: 8, hpc_memory_gb: 32, hpc_gpus: 0 });
    const env = await environOf(r.pid);
    expect(env.SVC_MAX_NODES).toBeUndefined();
    expect(env.SVC_MODEL).toBeUndefined();
    expect(env.SVC_PROFILE).toBe('hpc');
  });

  test('an invalid body creates nothing and starts nothing', async () => {
    const h = hostFor();
    await expect(launchRun({ ...h, body: { experiment_md: '', workers: 0 } })).rejects.toBeInstanceOf(InputError);
    expect(existsSync(root) ? readdirSync(root) : []).toEqual([]);
    expect(h.supervisor.activeRun()).toBeUndefined();
  });

  test('a program that cannot be started is one error, and its checkpoint is removed', async () => {
    const h = hostFor({ program: [join(dir, 'no-such-svc')] });
    await expect(launchRun({ ...h, body: { experiment_md: 'goal' } })).rejects.toThrow(/cannot start .*no-such-svc/);
    expect(readdirSync(root)).toEqual([]);
  });

  test('the exit code of the child is recorded when it ends', async () => {
    const script = join(dir, 'fail.sh');
    writeFileSync(script, '#!/bin/sh\nexit 3\n');
    const h = hostFor({ program: ['/bin/sh', script] });
    const r = await launchRun({ ...h, body: { experiment_md: 'goal' } });
    const child = h.supervisor.forCheckpoint(r.checkpoint_path);
    await child?.exited;
    expect(child).toMatchObject({ running: false, exitCode: 3 });
  });
});

describe('RunSupervisor.stop', () => {
  test('SIGTERM to the whole process group: the run and what it started end', async () => {
    const h = hostFor();
    const r = await launchRun({ ...h, body: { experiment_md: 'goal' } });
    await until(() => existsSync(join(dir, 'sleeper.pid')));
    const grandchild = sleeperPid();
    expect(alive(grandchild)).toBe(true);
    const stopped = await h.supervisor.stop(r.checkpoint_path, 5000);
    expect(stopped).toMatchObject({ ok: true, pid: r.pid, pgid: r.pid, signal: 'SIGTERM', exit_code: 143 });
    expect(alive(r.pid)).toBe(false);
    // the signal reached the whole group at once; the sleeper may take a moment more to go
    await until(() => !alive(grandchild), 5000);
  });

  test('a group that ignores SIGTERM gets SIGKILL after the grace period', async () => {
    const h = hostFor({ program: standInProgram(dir, { ignoreTerm: true }) });
    const r = await launchRun({ ...h, body: { experiment_md: 'goal' } });
    await until(() => existsSync(join(dir, 'sleeper.pid')));
    const grandchild = sleeperPid();
    const stopped = await h.supervisor.stop(r.checkpoint_path, 300);
    expect(stopped.signal).toBe('SIGKILL');
    expect(stopped.exit_code).not.toBe(0);
    expect(alive(r.pid)).toBe(false);
    await until(() => !alive(grandchild), 5000);
  });

  test('never signals a PID read from a file, nor any process it did not start', async () => {
    const h = hostFor();
    const foreign = Bun.spawn(['sleep', '30']);
    strays.push(foreign);
    const ck = join(root, '20261122000000_other');
    await Bun.write(join(ck, '.svc_pid'), `${foreign.pid}\n`);
    await expect(h.supervisor.stop(ck, 200)).rejects.toBeInstanceOf(NotFoundError);
    // a run of ours in the same checkpoint: stopping it leaves the foreign process alone
    const ours = await spawnRun({ kind: 'launch', program: standInProgram(dir), args: [], checkpoint: ck, env: { PATH: process.env.PATH ?? '' }, cwd: dir });
    h.supervisor.track(ours);
    await h.supervisor.stop(ck, 2000);
    expect(alive(ours.pid)).toBe(false);
    expect(alive(foreign.pid)).toBe(true);
  });

  test('after the run has ended, stop says so', async () => {
    const script = join(dir, 'quick.sh');
    writeFileSync(script, '#!/bin/sh\nexit 0\n');
    const h = hostFor({ program: ['/bin/sh', script] });
    const r = await launchRun({ ...h, body: { experiment_md: 'goal' } });
    await h.supervisor.forCheckpoint(r.checkpoint_path)?.exited;
    await expect(h.supervisor.stop(r.checkpoint_path)).rejects.toThrow(/already ended .*exit code 0/);
    await expect(h.supervisor.stop(r.checkpoint_path)).rejects.toBeInstanceOf(ConflictError);
  });

  test('a second launch is refused while the first runs', async () => {
    const h = hostFor();
    await launchRun({ ...h, body: { experiment_md: 'goal' } });
    expect(() => h.supervisor.refuseWhileRunning()).toThrow(ConflictError);
  });
});
