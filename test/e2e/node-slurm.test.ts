// A node on the real single-node Slurm: its allocation held for its lifetime, each command a step
// in it (coding-skill through the real skill server), a timed-out step stopped, the allocation
// cancelled when the node ends; and the offline demo on the cluster, with nothing left queued.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { comparisonsOf, DEMO_EXPERIMENT, DEMO_MODEL, DEMO_WORKFLOW, onlyCheckpoint, recordDemo, treeNodes } from '../../scripts/record-demo.ts';
import { startModelServer } from '../support/model-server.ts';
import { type OpenAIChatRequest, researcherReply } from '../support/scripted-researcher.ts';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import { NodeAllocations } from '../../src/sandbox/allocations.ts';
import { type CommandRunner, systemRunner } from '../../src/sandbox/slurm-runner.ts';
import { lacks } from '../support/components.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

const PATH = process.env.PATH ?? '/usr/bin:/bin';

/** The state squeue gives a job now ('' once it is gone), and its steps still running. */
async function squeue(args: string[]): Promise<string> {
  const p = Bun.spawn(['squeue', '-h', ...args], { stdout: 'pipe', stderr: 'ignore' });
  return (await new Response(p.stdout).text()).trim();
}
const jobState = (id: string) => squeue(['-t', 'all', '-o', '%T', '-j', id]);
const live = async (id: string) => ['PENDING', 'RUNNING', 'CONFIGURING'].includes(await jobState(id));

describe.skipIf(lacks('slurm'))("a node's allocation on the real cluster", () => {
  let dir: string;
  let work: string;
  let pool: SkillPool;
  let allocations: NodeAllocations;
  beforeAll(() => {
    dir = tempDir();
    allocations = new NodeAllocations({ partition: null, cpus: 1, wallS: 600, env: { PATH }, record: join(dir, 'allocations.json') });
    work = join(dir, 'experiments', 'node_1');
    mkdirSync(work, { recursive: true });
    pool = new SkillPool({ skills: listSkills(bundledWorkflow(), dir), env: { PATH, HOME: dir, SVC_WORK_DIR: dir, SVC_CHECKPOINT_DIR: join(dir, 'ckpt') }, program: SVC });
  });
  afterAll(async () => {
    await allocations.closeAll();
    await pool.close();
    removeDir(dir);
  });

  test('commands are steps of the allocation, on its compute node; exit codes come through; it ends with the node', async () => {
    const { jobId, nodes } = await allocations.open('node_1', new AbortController().signal);
    expect(await jobState(jobId)).toBe('RUNNING');
    expect(nodes).toBe(await squeue(['-o', '%N', '-j', jobId]));
    // held allocations are on disk, for a resume after a kill
    expect(JSON.parse(readFileSync(join(dir, 'allocations.json'), 'utf8'))).toEqual({ node_1: jobId });
    const exec = { slurm: { jobId } };
    const r = (await pool.call('run_bash', { command: 'echo "$SLURM_JOB_ID $(pwd)"; exit 5', work_dir: work }, { nodeId: 'node_1', exec })) as { result: { stdout: string; exit_code: number } };
    expect(r.result).toMatchObject({ exit_code: 5, stdout: `${jobId} ${work}\n` });
    // a step past its timeout is stopped; the allocation stays for the node's next command
    const slow = (await pool.call('run_bash', { command: 'sleep 60', work_dir: work, timeout: 2 }, { nodeId: 'node_1', exec })) as { result: { timed_out: boolean } };
    expect(slow.result.timed_out).toBe(true);
    for (let i = 0; i < 50 && (await squeue(['-s', '-h', '-o', '%i', '-j', jobId])).split('\n').some((s) => /\.\d+$/.test(s)); i++) await Bun.sleep(100);
    expect((await squeue(['-s', '-o', '%i', '-j', jobId])).split('\n').filter((s) => /\.\d+$/.test(s))).toEqual([]);
    expect(await jobState(jobId)).toBe('RUNNING');
    await allocations.close('node_1');
    for (let i = 0; i < 50 && (await live(jobId)); i++) await Bun.sleep(100);
    expect(await live(jobId)).toBe(false);
    expect(existsSync(join(dir, 'allocations.json'))).toBe(false);
  });

  test('an allocation the partition can never give fails in one line, and is cancelled', async () => {
    const huge = new NodeAllocations({ partition: null, cpus: 4096, wallS: 60, env: { PATH }, record: join(dir, 'huge.json') });
    const err = (await huge.open('node_2', new AbortController().signal).catch((e: Error) => e)) as Error & { hint?: string };
    expect(err.message).toMatch(/^the allocation (\d+) can never start: Slurm holds it for PartitionConfig$/);
    expect(err.hint).toContain('SVC_SLURM_CPUS');
    const id = /allocation (\d+)/.exec(err.message)?.[1] ?? '';
    for (let i = 0; i < 50 && (await live(id)); i++) await Bun.sleep(100);
    expect(await live(id)).toBe(false);
  });

  test("the node's memory is asked of Slurm with its CPUs; GPUs of a cluster without generic resources are refused at submit", async () => {
    const asked: string[][] = [];
    const runner: CommandRunner = (argv, stdin) => {
      if (argv[0] === 'sbatch') asked.push(argv);
      return systemRunner({ PATH })(argv, stdin);
    };
    const sized = new NodeAllocations({ partition: null, cpus: 1, memGb: 0.1, wallS: 60, env: { PATH }, record: join(dir, 'sized.json'), runner });
    const { jobId } = await sized.open('node_3', new AbortController().signal);
    try {
      expect(asked[0]).toContain('--mem=103M');
      expect(asked[0]).not.toContainEqual(expect.stringMatching(/^--gres/));
      expect(await squeue(['-o', '%m|%C', '-j', jobId])).toBe('103M|1');
    } finally {
      await sized.close('node_3');
    }
    const gpus = new NodeAllocations({ partition: null, cpus: 1, gpus: 1, wallS: 60, env: { PATH }, record: join(dir, 'gpus.json'), runner });
    const err = (await gpus.open('node_4', new AbortController().signal).catch((e: Error) => e)) as Error;
    expect(asked[1]).toContain('--gres=gpu:1');
    expect(err.message).toBe('sbatch refused the allocation of node node_4: sbatch: error: Invalid generic resource (gres) specification');
  });

  test('GPUs asked of a partition without generic resources: the run stops before anything starts, naming the override', async () => {
    const run = await recordDemo({ env: { SVC_EXECUTOR: 'slurm', SVC_SLURM_CPUS: '1', SVC_SLURM_GPUS: '1' } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toBe('svc: 1 GPU(s) requested but partition debug reports no generic resources (sinfo -o %G) (set SVC_SLURM_ALLOW_NO_GRES=1 to submit without the GPU request)\n');
    expect(onlyCheckpoint(run.root)).toBeNull();
    removeDir(run.root);
  });

  test("the demo's search on the cluster: the same nodes and best result, each node on its allocation, nothing left queued", async () => {
    // the scripted researcher answers as it recorded the demo; a replay of the cassette would depend
    // on the nodes finishing in the recorded order, which allocations starting a little later change.
    // The GPUs asked for are dropped with a warning: an allocation asking for them could not be had here.
    const run = await recordDemo({ env: { SVC_EXECUTOR: 'slurm', SVC_SLURM_CPUS: '1', SVC_SLURM_GPUS: '1', SVC_SLURM_ALLOW_NO_GRES: '1' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('1 GPU(s) requested but partition debug reports no generic resources (sinfo -o %G); submitting without GPUs because SVC_SLURM_ALLOW_NO_GRES=1');
    const checkpoint = onlyCheckpoint(run.root) ?? '';
    expect(treeNodes(checkpoint).length).toBe(5);
    expect(Math.min(...treeNodes(checkpoint).map((n) => comparisonsOf(n) ?? Number.POSITIVE_INFINITY))).toBe(30_850);
    const ids = [...run.stderr.matchAll(/: allocation (\d+)$/gm)].map((m) => m[1] as string);
    expect(ids.length).toBe(5);
    for (const id of ids) {
      for (let i = 0; i < 50 && (await live(id)); i++) await Bun.sleep(100);
      expect(await live(id)).toBe(false);
    }
    const reports = treeNodes(checkpoint).map((n) => JSON.parse(readFileSync(join(run.root, 'workspace', 'experiments', checkpoint.split('/').pop() ?? '', n.id, 'node_report.json'), 'utf8')));
    expect(reports.map((r) => r.executor)).toEqual(Array(5).fill('slurm'));
    expect(reports.map((r) => r.slurm_job_id).sort()).toEqual([...ids].sort());
    // the compute node the commands ran on
    const host = (await squeue(['-t', 'all', '-o', '%N', '-j', ids[0] ?? ''])).trim();
    expect(host).not.toBe('');
    expect(reports.map((r) => r.hostname)).toEqual(Array(5).fill(host));
    expect(reports.map((r) => r.slurm_nodelist)).toEqual(reports.map((r) => r.hostname));
    removeDir(run.root);
  }, 300_000);

  test('a run killed outright while its nodes hold allocations: the resume cancels them, finishes the search, and leaves nothing queued', async () => {
    const server = startModelServer([], { respond: (body) => ({ ...researcherReply(body as OpenAIChatRequest), delayMs: 40 }) });
    const root = tempDir('svc-slurm-kill-');
    const env = { PATH, HOME: root, NO_COLOR: '1', SVC_ROOT: root, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: DEMO_MODEL, SVC_EXECUTOR: 'slurm', SVC_SLURM_CPUS: '1' };
    try {
      const first = Bun.spawn([SVC, 'run', DEMO_EXPERIMENT, '--config', DEMO_WORKFLOW], { cwd: root, env, stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
      const record = () => {
        const ck = onlyCheckpoint(root);
        return ck && existsSync(join(ck, 'slurm_allocations.json')) ? (JSON.parse(readFileSync(join(ck, 'slurm_allocations.json'), 'utf8')) as Record<string, string>) : {};
      };
      for (let i = 0; i < 600 && Object.keys(record()).length === 0; i++) await Bun.sleep(20);
      first.kill('SIGKILL');
      await first.exited;
      const left = Object.values(record());
      expect(left.length).toBeGreaterThan(0);
      for (const id of left) expect(await live(id)).toBe(true);
      const checkpoint = onlyCheckpoint(root) ?? '';
      const resumed = Bun.spawn([SVC, 'resume', checkpoint], { cwd: root, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
      const [stderr, code] = await Promise.all([new Response(resumed.stderr).text(), resumed.exited]);
      expect(code, stderr).toBe(0);
      expect(stderr).toContain(`cancelled the allocations the run had left: ${left.join(', ')}`);
      const all = [...left, ...[...stderr.matchAll(/: allocation (\d+)$/gm)].map((m) => m[1] as string)];
      for (const id of all) {
        for (let i = 0; i < 50 && (await live(id)); i++) await Bun.sleep(100);
        expect(await live(id)).toBe(false);
      }
      expect(treeNodes(checkpoint).filter((n) => n.status === 'success').length).toBe(5);
      expect(existsSync(join(checkpoint, 'slurm_allocations.json'))).toBe(false);
    } finally {
      server.stop();
      removeDir(root);
    }
  }, 300_000);
});
