// A node on the real single-node Slurm: its allocation held for its lifetime, each command a step
// in it (coding-skill through the real skill server), a timed-out step stopped, the allocation
// cancelled when the node ends; and the offline demo on the cluster, with nothing left queued.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { comparisonsOf, onlyCheckpoint, runDemo, treeNodes } from '../../scripts/record-demo.ts';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import { NodeAllocations } from '../../src/sandbox/allocations.ts';
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
  const allocations = new NodeAllocations({ partition: null, cpus: 1, wallS: 600, env: { PATH } });
  beforeAll(() => {
    dir = tempDir();
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
    const jobId = await allocations.open('node_1', new AbortController().signal);
    expect(await jobState(jobId)).toBe('RUNNING');
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
  });

  test('an allocation the partition can never give fails in one line, and is cancelled', async () => {
    const huge = new NodeAllocations({ partition: null, cpus: 4096, wallS: 60, env: { PATH } });
    const err = (await huge.open('node_2', new AbortController().signal).catch((e: Error) => e)) as Error & { hint?: string };
    expect(err.message).toMatch(/^the allocation (\d+) can never start: Slurm holds it for PartitionConfig$/);
    expect(err.hint).toContain('SVC_SLURM_CPUS');
    const id = /allocation (\d+)/.exec(err.message)?.[1] ?? '';
    for (let i = 0; i < 50 && (await live(id)); i++) await Bun.sleep(100);
    expect(await live(id)).toBe(false);
  });

  test('the offline demo on the cluster: the same nodes and best result, each node on its allocation, nothing left queued', async () => {
    const run = await runDemo({ env: { SVC_EXECUTOR: 'slurm', SVC_SLURM_CPUS: '1' }, replay: join(import.meta.dir, '../../examples/demo/cassette.jsonl') });
    expect(run.code, run.stderr).toBe(0);
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
    removeDir(run.root);
  }, 300_000);
});
