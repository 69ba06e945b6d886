import { afterEach, beforeEach, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunSupervisor } from '../../../../src/run/supervisor.ts';
import { orchestratorTools } from '../../../../src/skills/orchestrator/tools.ts';
import { orchestratorCheckpoints } from '../../../../src/skills/orchestrator/workspace.ts';
import { checkArguments } from '../../../../src/mcp/arguments.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { cmdlineOf, environOf, killAll, standInProgram } from '../../run/helpers.ts';

let dir: string;
let supervisor: RunSupervisor;
let env: Record<string, string>;
beforeEach(() => {
  dir = tempDir();
  supervisor = new RunSupervisor();
  env = { PATH: process.env.PATH ?? '', HOME: dir, SVC_WORKSPACE: join(dir, 'ws') };
});
afterEach(async () => {
  await killAll(supervisor);
  removeDir(dir);
});

async function call(name: string, args: Record<string, unknown>): Promise<any> {
  const tool = orchestratorTools({ supervisor, program: standInProgram(dir) }).find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.run(checkArguments(tool.params, name, args), { signal: new AbortController().signal, env });
}

function walk(d: string): string[] {
  return readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
}

test('run_experiment: choices in the run environment, the API key only there, never on disk', async () => {
  const r = await call('run_experiment', {
    experiment_md: '# Goal\nsort faster',
    model: 'm-small',
    llm_backend: 'openai-compatible',
    llm_api_key: 'sk-orchestrator-secret-42',
    llm_base_url: 'http://127.0.0.1:9/v1',
    executor: 'slurm',
    cpus: 4,
    timeout_minutes: 90,
    retrieval_backend: 'both',
  });
  expect(r.checkpoint_path).toBe(join(dir, 'ws', 'checkpoints', r.run_id));
  expect(await cmdlineOf(r.pid)).toEqual([...standInProgram(dir), 'run', join(r.checkpoint_path, 'experiment.md')]);
  expect(await environOf(r.pid)).toMatchObject({
    SVC_CHECKPOINT_DIR: r.checkpoint_path,
    SVC_MODEL: 'm-small',
    SVC_BACKEND: 'openai-compatible',
    SVC_MAX_NODES: '10',
    LLM_API_KEY: 'sk-orchestrator-secret-42',
    LLM_API_BASE: 'http://127.0.0.1:9/v1',
    SVC_EXECUTOR: 'slurm',
    SVC_SLURM_CPUS: '4',
    SVC_SLURM_WALLTIME: '01:30:00',
    SVC_RETRIEVAL_BACKEND: 'both',
  });
  for (const f of walk(join(dir, 'ws'))) expect(readFileSync(f, 'utf8')).not.toContain('sk-orchestrator-secret-42');
  const meta = JSON.parse(readFileSync(join(r.checkpoint_path, 'meta.json'), 'utf8'));
  expect(meta).toMatchObject({ run_id: r.run_id, parent_run_id: null, recursion_depth: 0, max_recursion_depth: 3 });
  expect(JSON.parse(readFileSync(join(r.checkpoint_path, 'launch_config.json'), 'utf8'))).toMatchObject({ llm_model: 'm-small', max_nodes: 10, executor: 'slurm', hpc_cpus: 4, launched_by: 'orchestrator' });
});

test('the key goes to the variable its backend reads', async () => {
  const r = await call('run_experiment', { experiment_md: 'x', llm_backend: 'openai', llm_api_key: 'k1' });
  const e = await environOf(r.pid);
  expect(e.PROVIDERA_API_KEY).toBe('k1');
  expect(e.LLM_API_KEY).toBeUndefined();
});

test('a sub-experiment through parent_run_id, held to the limit its root recorded', async () => {
  const root = await call('run_experiment', { experiment_md: '# Root\nexplore', max_recursion_depth: 1 });
  const child = await call('run_experiment', { experiment_md: '# Child\nablate', parent_run_id: root.run_id });
  expect(child.parent_run_id).toBe(root.run_id);
  const kids = await call('list_children', { run_id: root.run_id });
  expect(kids.children.map((c: { run_id: string }) => c.run_id)).toEqual([child.run_id]);
  // the root allowed one level: asking for more does not lift it
  await expect(call('run_experiment', { experiment_md: 'again', parent_run_id: child.run_id, max_recursion_depth: 5 })).rejects.toThrow(/past max_recursion_depth 1/);
});

test('bad arguments are named', async () => {
  await expect(call('run_experiment', { experiment_md: 'x', llm_backend: 'skynet' })).rejects.toThrow(/provider must be one of/);
  expect(() => checkArguments(orchestratorTools({ supervisor }).find((t) => t.name === 'run_experiment')!.params, 'run_experiment', { experiment_md: 'x', max_nodes: 0 })).toThrow(/max_nodes/);
  await expect(call('run_experiment', { experiment_md: 'x', parent_run_id: '../../etc' })).rejects.toThrow(/invalid run id/);
});

test('get_status reports the exit code of a run this orchestrator started, and the runs on disk', async () => {
  const tools = orchestratorTools({ supervisor, program: ['/bin/sh', '-c', 'exit 4', 'sh'] });
  const run = tools.find((t) => t.name === 'run_experiment')!;
  const status = tools.find((t) => t.name === 'get_status')!;
  const ctx = { signal: new AbortController().signal, env };
  const r = (await run.run(checkArguments(run.params, 'run_experiment', { experiment_md: 'x' }), ctx)) as { run_id: string; checkpoint_path: string };
  await supervisor.forCheckpoint(r.checkpoint_path)?.exited;
  expect(await status.run({ run_id: r.run_id }, ctx)).toMatchObject({ run_id: r.run_id, is_running: false, exit_code: 4, parent_run_id: null, recursion_depth: 0 });
});

test('get_paper: the LaTeX when there is one, else no paper yet', async () => {
  const ck = join(orchestratorCheckpoints(env), '20261122000000_done');
  mkdirSync(ck, { recursive: true });
  writeFileSync(join(ck, 'tree.json'), '{"nodes":[]}');
  await expect(call('get_paper', { run_id: '20261122000000_done' })).rejects.toThrow(/no paper yet for run 20261122000000_done/);
  writeFileSync(join(ck, 'full_paper.tex'), '\\documentclass{article}');
  expect(await call('get_paper', { run_id: '20261122000000_done' })).toEqual({
    run_id: '20261122000000_done',
    file: join(ck, 'full_paper.tex'),
    format: 'latex',
    content: '\\documentclass{article}',
    tex_path: join(ck, 'full_paper.tex'),
    pdf_path: null,
    title: null,
    pages: null,
  });
});

test('get_paper: the facts the checkpoint summary gives, the title from \\title and the pages the finalize stage recorded', async () => {
  const ck = join(orchestratorCheckpoints(env), '20261122000000_paper');
  mkdirSync(ck, { recursive: true });
  writeFileSync(join(ck, 'tree.json'), '{"nodes":[]}');
  writeFileSync(join(ck, 'full_paper.tex'), '\\documentclass{article}\n\\title{Fewer Comparisons: A Gap Ratio for Shell Sort}\n');
  writeFileSync(join(ck, 'full_paper.pdf'), '%PDF-1.5\n');
  writeFileSync(join(ck, 'finalize_paper.json'), JSON.stringify({ pdf_path: join(ck, 'full_paper.pdf'), pages: 4 }));
  expect(await call('get_paper', { run_id: '20261122000000_paper' })).toMatchObject({
    format: 'latex',
    content: expect.stringContaining('\\title{Fewer'),
    tex_path: join(ck, 'full_paper.tex'),
    pdf_path: join(ck, 'full_paper.pdf'),
    title: 'Fewer Comparisons: A Gap Ratio for Shell Sort',
    pages: 4,
  });
});

test('SVC_WORKSPACE defaults to ~/SVC', () => {
  expect(orchestratorCheckpoints({ HOME: '/home/u' })).toBe('/home/u/SVC/checkpoints');
  expect(orchestratorCheckpoints({ HOME: '/home/u', SVC_WORKSPACE: '/data/ws' })).toBe('/data/ws/checkpoints');
});
