// A node's commands on PBS and LSF, one job each, through the real coding skill server: against
// stand-in qsub/qstat/qdel and bsub/bjobs/bkill (no PBS or LSF server can be installed here)
// that speak the real commands' protocol and really run each job. Then the demo's search with
// SVC_EXECUTOR=pbs: every node's report names PBS and the jobs its commands ran as.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { comparisonsOf, onlyCheckpoint, recordDemo, treeNodes } from '../../scripts/record-demo.ts';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import { jobsNamed } from '../../src/sandbox/job-state.ts';
import { installBatchStandins, type StandinJob } from '../support/batch-standins.ts';
import { lacks } from '../support/components.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

type Result = { exit_code: number; signal: string | null; stdout: string; stderr: string; timed_out: boolean; truncated: boolean; elapsed_s: number };
type Outcome = { result?: Result; error?: string };

const CLUSTERS = [
  { kind: 'pbs', jobIdVar: 'PBS_JOBID', idOf: (seq: string) => `${seq}.standin` },
  { kind: 'lsf', jobIdVar: 'LSB_JOBID', idOf: (seq: string) => seq },
] as const;

describe.each(CLUSTERS)("a node's commands as $kind jobs", ({ kind, jobIdVar, idOf }) => {
  let dir: string;
  let work: string;
  let pool: SkillPool;
  let jobs: () => StandinJob[];
  const exec = { batch: { kind } };
  const call = (tool: string, args: Record<string, unknown>, signal?: AbortSignal) => pool.call(tool, { ...args, work_dir: work }, { nodeId: 'node_1', exec, ...(signal ? { signal } : {}) }) as Promise<Outcome>;
  const last = () => jobs().at(-1) as StandinJob;
  /** The job once deleted and its processes gone (killed ones take a moment to be reaped), or as it is after 5 s. */
  const settled = async (seq: string) => {
    const job = () => jobs().find((j) => j.seq === seq);
    for (let i = 0; i < 100 && (!job()?.deleted || job()?.running); i++) await Bun.sleep(50);
    return job();
  };

  beforeAll(() => {
    dir = tempDir(`svc-${kind}-`);
    work = join(dir, 'experiments', 'node_1');
    mkdirSync(work, { recursive: true });
    const standins = installBatchStandins(dir);
    jobs = standins.jobs;
    const PATH = `${standins.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`;
    pool = new SkillPool({ skills: listSkills(bundledWorkflow(), dir), env: { PATH, HOME: dir, SVC_WORK_DIR: dir, SVC_CHECKPOINT_DIR: join(dir, 'ckpt') }, program: SVC });
  });
  afterAll(async () => {
    await pool.close();
    removeDir(dir);
  });

  test("run_bash is a job in the node's work directory: its stdout, stderr and exit code come back", async () => {
    const r = await call('run_bash', { command: `echo "$${jobIdVar} $(pwd)"; echo warned >&2; exit 5` });
    const job = last();
    expect(r.result).toMatchObject({ exit_code: 5, signal: null, stdout: `${idOf(job.seq)} ${work}\n`, stderr: 'warned\n', timed_out: false, truncated: false });
    expect(job).toMatchObject({ name: 'svc-node_1', state: 'F', deleted: false });
    expect(jobsNamed(work, kind, 'svc-node_1')).toEqual([idOf(job.seq)]);
  });

  test.skipIf(lacks('python3'))("run_code runs the interpreter the job finds with the command's environment; long output is cut as here", async () => {
    writeFileSync(join(work, 'big.py'), "import os\nprint(os.environ['SVC_CURRENT_NODE_ID'])\nprint('x' * 200000)\nprint('end')\n");
    const r = await call('run_code', { filename: 'big.py' });
    expect(r.result).toMatchObject({ exit_code: 0, timed_out: false, truncated: true });
    expect(r.result?.stdout).toStartWith('node_1\nxxx');
    expect(r.result?.stdout).toEndWith('x\nend\n');
    expect(r.result?.stdout).toContain('characters cut');
  });

  test('past its timeout the job is deleted: timed_out, ended by SIGTERM, its process gone', async () => {
    const r = await call('run_bash', { command: 'echo started; sleep 60', timeout: 2 });
    expect(r.result).toMatchObject({ exit_code: 143, signal: 'SIGTERM', timed_out: true, stdout: 'started\n' });
    expect(r.result?.elapsed_s).toBeLessThan(15);
    expect(await settled(last().seq)).toMatchObject({ state: 'F', deleted: true, running: false });
  });

  test('a call given up (the node ended, the run stopped) deletes its job', async () => {
    const stop = new AbortController();
    const pending = call('run_bash', { command: 'sleep 60' }, stop.signal);
    for (let i = 0; i < 100 && last()?.state !== 'R'; i++) await Bun.sleep(50);
    const running = last();
    expect(running.state).toBe('R');
    stop.abort();
    expect((await pending).error).toBe('run_bash was cancelled');
    expect(await settled(running.seq)).toMatchObject({ deleted: true, running: false });
  });
});

test("the demo's search with SVC_EXECUTOR=pbs: the same best result, each node's report naming PBS and its jobs", async () => {
  const dir = tempDir('svc-pbs-run-');
  const standins = installBatchStandins(dir);
  try {
    const run = await recordDemo({ env: { SVC_EXECUTOR: 'pbs', PATH: `${standins.bin}:${process.env.PATH ?? '/usr/bin:/bin'}` } });
    expect(run.code, run.stderr).toBe(0);
    const checkpoint = onlyCheckpoint(run.root) ?? '';
    const nodes = treeNodes(checkpoint);
    expect(nodes.length).toBe(5);
    expect(Math.min(...nodes.map((n) => comparisonsOf(n) ?? Number.POSITIVE_INFINITY))).toBe(30_850);
    const experiments = join(run.root, 'workspace', 'experiments', checkpoint.split('/').pop() ?? '');
    const reports = nodes.map((n) => JSON.parse(readFileSync(join(experiments, n.id, 'node_report.json'), 'utf8')));
    expect(reports.map((r) => r.executor)).toEqual(Array(5).fill('pbs'));
    // the host the jobs ran on: the stand-in's own, where it can name one (as root)
    const execHost = Bun.spawnSync(['unshare', '--uts', 'true']).exitCode === 0 ? 'execnode01' : hostname();
    expect(reports.map((r) => r.hostname)).toEqual(Array(5).fill(execHost));
    // each node's own jobs, one per command, all of them the stand-in ran
    const ran = standins.jobs();
    for (const [i, r] of reports.entries()) {
      expect(r.batch_job_ids.length).toBeGreaterThan(0);
      for (const id of r.batch_job_ids) expect(ran.find((j) => `${j.seq}.standin` === id)).toMatchObject({ name: `svc-${nodes[i]?.id}`, state: 'F' });
    }
    expect(reports.flatMap((r) => r.batch_job_ids).length).toBe(ran.length);
    // the job records are not the node's work
    for (const r of reports) expect([...r.files_changed.added, ...r.files_changed.modified].map((f: { path: string }) => f.path).filter((p: string) => p.startsWith('.svc-jobs'))).toEqual([]);
    removeDir(run.root);
  } finally {
    removeDir(dir);
  }
}, 300_000);
