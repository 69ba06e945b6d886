// A node on the real single-node Slurm: its allocation held for its lifetime, each command a step
// in it (coding-skill through the real skill server), a timed-out step stopped, the allocation
// cancelled when the node ends; and the offline demo on the cluster, with nothing left queued.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { comparisonsOf, DEMO_CASSETTE, DEMO_EXPERIMENT, DEMO_MODEL, DEMO_WORKFLOW, onlyCheckpoint, recordDemo, runDemo, treeNodes } from '../../scripts/record-demo.ts';
import { startModelServer } from '../support/model-server.ts';
import { type OpenAIChatRequest, researcherReply } from '../support/scripted-researcher.ts';
import { offeredTool, offersTools, promptName } from '../support/scripted-request.ts';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import { NodeAllocations } from '../../src/sandbox/allocations.ts';
import { containerName, nodeCommand, sweepContainersCommand } from '../../src/sandbox/node-command.ts';
import { type CommandRunner, systemRunner } from '../../src/sandbox/slurm-runner.ts';
import { lacks } from '../support/components.ts';
import { ensureContainerRuntime } from '../support/container.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

const PATH = process.env.PATH ?? '/usr/bin:/bin';
const containers = await ensureContainerRuntime();

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
    allocations = new NodeAllocations({ partition: null, cpus: 1, budgetS: 540, env: { PATH }, record: join(dir, 'allocations.json') });
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
    expect(JSON.parse(readFileSync(join(dir, 'allocations.json'), 'utf8'))).toEqual({ node_1: { job: jobId, ask: '--cpus-per-task=1' } });
    const exec = { slurm: { jobId } };
    const r = (await pool.call('run_bash', { command: 'echo "$SLURM_JOB_ID.$SLURM_STEP_ID $(pwd)"; exit 5', work_dir: work }, { nodeId: 'node_1', exec })) as { result: { stdout: string; exit_code: number } };
    expect(r.result).toMatchObject({ exit_code: 5 });
    expect(r.result.stdout).toMatch(new RegExp(`^${jobId}\\.\\d+ ${work}\n$`));
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

  test.skipIf('reason' in containers)('with a container: each command runs in it, inside a step of the allocation; its timeout ends the step and the container', async () => {
    if ('reason' in containers) return;
    const container = { runtime: containers.runtime, binary: containers.binary, image: containers.image, pull: 'never' as const };
    const swept = new NodeAllocations({ partition: null, cpus: 1, budgetS: 540, env: { PATH }, record: join(dir, 'swept.json'), sweep: (id) => sweepContainersCommand({ container, slurm: { jobId: id } }) });
    const { jobId } = await swept.open('node_c', new AbortController().signal);
    const exec = { slurm: { jobId }, container };
    // this machine's files are not there, the work dir is, at its own path; the exit code comes through
    const r = (await pool.call('run_bash', { command: 'test -e /etc/slurm/slurm.conf && echo host || echo container; pwd; exit 3', work_dir: work }, { nodeId: 'node_c', exec })) as { result: { stdout: string; exit_code: number } };
    expect(r.result).toMatchObject({ exit_code: 3, stdout: `container\n${work}\n` });
    const slow = pool.call('run_bash', { command: 'sleep 60', work_dir: work, timeout: 3 }, { nodeId: 'node_c', exec }) as Promise<{ result: { timed_out: boolean } }>;
    // while it runs it is a step of the allocation
    let steps = '';
    for (let i = 0; i < 50 && !/\.\d+$/m.test(steps); i++) steps = await squeue(['-s', '-o', '%i', '-j', jobId]).then((t) => (Bun.sleep(100), t));
    expect(steps).toMatch(new RegExp(`^${jobId}\\.\\d+$`, 'm'));
    expect((await slow).result.timed_out).toBe(true);
    for (let i = 0; i < 50 && /\.\d+$/m.test(await squeue(['-s', '-o', '%i', '-j', jobId])); i++) await Bun.sleep(100);
    expect((await squeue(['-s', '-o', '%i', '-j', jobId])).split('\n').filter((l) => /\.\d+$/.test(l))).toEqual([]);
    const running = () => Bun.spawnSync([containers.binary, 'ps', '-aq', '--filter', `name=^svc-${jobId}-`]).stdout.toString().trim();
    expect(running()).toBe('');
    // a command whose client was killed outright, its own removal never run: the node's end removes its container
    const name = containerName(exec) ?? '';
    const orphan = Bun.spawn(nodeCommand(['sleep', '60'], work, exec, name), { stdout: 'ignore', stderr: 'ignore' });
    for (let i = 0; i < 100 && running() === ''; i++) await Bun.sleep(100);
    orphan.kill('SIGKILL');
    await orphan.exited;
    expect(running()).not.toBe('');
    await swept.close('node_c');
    expect(running()).toBe('');
  });

  test('an allocation the partition can never give fails in one line, and is cancelled', async () => {
    const huge = new NodeAllocations({ partition: null, cpus: 4096, budgetS: 0, env: { PATH }, record: join(dir, 'huge.json') });
    const err = (await huge.open('node_2', new AbortController().signal).catch((e: Error) => e)) as Error & { hint?: string };
    expect(err.message).toMatch(/^the allocation (\d+) can never start: Slurm holds it for PartitionConfig$/);
    expect(err.hint).toContain('SVC_SLURM_CPUS');
    const id = /allocation (\d+)/.exec(err.message)?.[1] ?? '';
    for (let i = 0; i < 50 && (await live(id)); i++) await Bun.sleep(100);
    expect(await live(id)).toBe(false);
  });

  test('a run taking over left allocations keeps those of the nodes it continues with their budget left, stops the steps left in them, and cancels the rest', async () => {
    const record = join(dir, 'left.json');
    const before = new NodeAllocations({ partition: null, cpus: 1, budgetS: 540, env: { PATH }, record });
    const a = await before.open('node_a', new AbortController().signal);
    const b = await before.open('node_b', new AbortController().signal);
    // a step the killed run left running in node_a's allocation
    const orphan = Bun.spawn(['srun', `--jobid=${a.jobId}`, '--overlap', '--quiet', 'sleep', '300'], { stdout: 'ignore', stderr: 'ignore' });
    for (let i = 0; i < 50 && !(await squeue(['-s', '-o', '%i', '-j', a.jobId])).includes(`${a.jobId}.`); i++) await Bun.sleep(100);
    // the run before is gone without closing them: a new run reads the record
    const after = new NodeAllocations({ partition: null, cpus: 1, budgetS: 540, env: { PATH }, record });
    expect(await after.takeOver((nodeId) => nodeId === 'node_a')).toEqual({ kept: [a.jobId], cancelled: [b.jobId] });
    expect(JSON.parse(readFileSync(record, 'utf8'))).toEqual({ node_a: { job: a.jobId, ask: '--cpus-per-task=1' } });
    await orphan.exited;
    // the step's client has gone; slurmctld forgets the step a moment later
    const steps = async () => (await squeue(['-s', '-o', '%i', '-j', a.jobId])).split('\n').filter((s) => /\.\d+$/.test(s));
    for (let i = 0; i < 50 && (await steps()).length > 0; i++) await Bun.sleep(100);
    expect(await steps()).toEqual([]);
    for (let i = 0; i < 50 && (await live(b.jobId)); i++) await Bun.sleep(100);
    expect(await live(b.jobId)).toBe(false);
    expect(await after.open('node_a', new AbortController().signal)).toEqual({ jobId: a.jobId, nodes: a.nodes, kept: true });
    // a node whose budget is longer than what its allocation has left gets a new one
    const longer = new NodeAllocations({ partition: null, cpus: 1, budgetS: 600, env: { PATH }, record });
    expect(await longer.takeOver(() => true)).toEqual({ kept: [], cancelled: [a.jobId] });
    for (let i = 0; i < 50 && (await live(a.jobId)); i++) await Bun.sleep(100);
    expect(await live(a.jobId)).toBe(false);
    expect(existsSync(record)).toBe(false);
    // a run asking for other resources (here more CPUs) does not keep one
    const c = await new NodeAllocations({ partition: null, cpus: 1, budgetS: 540, env: { PATH }, record }).open('node_c2', new AbortController().signal);
    const otherAsk = new NodeAllocations({ partition: null, cpus: 2, budgetS: 540, env: { PATH }, record });
    expect(await otherAsk.takeOver(() => true)).toEqual({ kept: [], cancelled: [c.jobId] });
  });

  test("the node's memory is asked of Slurm with its CPUs; GPUs of a cluster without generic resources are refused at submit", async () => {
    const asked: string[][] = [];
    const runner: CommandRunner = (argv, stdin) => {
      if (argv[0] === 'sbatch') asked.push(argv);
      return systemRunner({ PATH })(argv, stdin);
    };
    const sized = new NodeAllocations({ partition: null, cpus: 1, memGb: 0.1, budgetS: 0, env: { PATH }, record: join(dir, 'sized.json'), runner });
    const { jobId } = await sized.open('node_3', new AbortController().signal);
    try {
      expect(asked[0]).toContain('--mem=103M');
      expect(asked[0]).not.toContainEqual(expect.stringMatching(/^--gres/));
      expect(await squeue(['-o', '%m|%C', '-j', jobId])).toBe('103M|1');
    } finally {
      await sized.close('node_3');
    }
    const gpus = new NodeAllocations({ partition: null, cpus: 1, gpus: 1, budgetS: 0, env: { PATH }, record: join(dir, 'gpus.json'), runner });
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

  test("the offline demo replayed on the cluster: the same nodes and best result as on this machine, each node on its allocation, nothing left queued", async () => {
    // the GPUs asked for are dropped with a warning: an allocation asking for them could not be had here
    const run = await runDemo({ env: { SVC_EXECUTOR: 'slurm', SVC_SLURM_CPUS: '1', SVC_SLURM_GPUS: '1', SVC_SLURM_ALLOW_NO_GRES: '1' }, replay: DEMO_CASSETTE });
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
    // the run's record of its allocations stays in the checkpoint: a node's files do not depend on which others hold one
    for (const n of treeNodes(checkpoint)) expect(existsSync(join(run.root, 'workspace', 'experiments', checkpoint.split('/').pop() ?? '', n.id, 'slurm_allocations.json'))).toBe(false);
    // svc status shows where each node ran
    const status = Bun.spawn([SVC, 'status', checkpoint], { env: { PATH, HOME: run.root, SVC_ROOT: run.root, NO_COLOR: '1' }, stdout: 'pipe', stderr: 'pipe' });
    const shown = await new Response(status.stdout).text();
    for (const r of reports) expect(shown).toContain(`on ${host} (slurm job ${r.slurm_job_id})`);
    removeDir(run.root);
  }, 300_000);

  test('a node past its time budget on the cluster: its allocation and the step in it are cancelled, and the node fails saying why', async () => {
    // a researcher whose one command outlasts the node's budget
    const server = startModelServer([], {
      respond: (body) => {
        const req = body as OpenAIChatRequest;
        if (promptName(req) === 'agent/system' && offersTools(req)) return { toolCalls: [{ id: 'call_1', name: offeredTool(req, 'run_bash'), args: { command: 'sleep 300', timeout: 600 } }] };
        return researcherReply(req);
      },
    });
    const root = tempDir('svc-slurm-timeout-');
    const env = { PATH, HOME: root, NO_COLOR: '1', SVC_ROOT: root, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: DEMO_MODEL, SVC_EXECUTOR: 'slurm', SVC_SLURM_CPUS: '1', SVC_TIMEOUT_NODE: '8', SVC_MAX_NODES: '1' };
    try {
      const run = Bun.spawn([SVC, 'run', DEMO_EXPERIMENT, '--config', DEMO_WORKFLOW], { cwd: root, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
      const [stderr] = await Promise.all([new Response(run.stderr).text(), run.exited]);
      const ids = [...stderr.matchAll(/: allocation (\d+)$/gm)].map((m) => m[1] as string);
      expect(ids.length, stderr).toBe(1);
      const id = ids[0] ?? '';
      for (let i = 0; i < 50 && (await live(id)); i++) await Bun.sleep(100);
      expect(await live(id)).toBe(false);
      expect(await squeue(['-s', '-o', '%i', '-j', id])).toBe('');
      const nodes = treeNodes(onlyCheckpoint(root) ?? '');
      expect(nodes.map((n) => n.status)).toEqual(['failed']);
      expect(JSON.stringify(nodes[0])).toContain('node stopped after its time limit (SVC_TIMEOUT_NODE=8 s)');
    } finally {
      server.stop();
      removeDir(root);
    }
  }, 120_000);

  test('Ctrl-C while nodes hold allocations: the run stops resumable, and every allocation is cancelled', async () => {
    const server = startModelServer([], { respond: (body) => ({ ...researcherReply(body as OpenAIChatRequest), delayMs: 40 }) });
    const root = tempDir('svc-slurm-int-');
    const env = { PATH, HOME: root, NO_COLOR: '1', SVC_ROOT: root, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: DEMO_MODEL, SVC_EXECUTOR: 'slurm', SVC_SLURM_CPUS: '1' };
    try {
      const run = Bun.spawn([SVC, 'run', DEMO_EXPERIMENT, '--config', DEMO_WORKFLOW], { cwd: root, env, stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
      const held = () => {
        const ck = onlyCheckpoint(root);
        return ck && existsSync(join(ck, 'slurm_allocations.json')) ? Object.values(JSON.parse(readFileSync(join(ck, 'slurm_allocations.json'), 'utf8')) as Record<string, { job: string }>).map((a) => a.job) : [];
      };
      for (let i = 0; i < 3000 && held().length < 2; i++) await Bun.sleep(20);
      const ids = held();
      expect(ids.length).toBeGreaterThanOrEqual(2);
      run.kill('SIGINT');
      const [stderr] = await Promise.all([new Response(run.stderr).text(), run.exited]);
      expect(stderr).toContain('SIGINT: stopping');
      for (const id of ids) {
        for (let i = 0; i < 50 && (await live(id)); i++) await Bun.sleep(100);
        expect(await live(id)).toBe(false);
      }
      expect(existsSync(join(onlyCheckpoint(root) ?? '', 'slurm_allocations.json'))).toBe(false);
    } finally {
      server.stop();
      removeDir(root);
    }
  }, 120_000);

  test('a run killed outright while 4 nodes hold allocations: the resume runs those nodes again in them, finishes the search, and leaves nothing queued', async () => {
    const server = startModelServer([], { respond: (body) => ({ ...researcherReply(body as OpenAIChatRequest), delayMs: 40 }) });
    const root = tempDir('svc-slurm-kill-');
    const env = { PATH, HOME: root, NO_COLOR: '1', SVC_ROOT: root, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: DEMO_MODEL, SVC_EXECUTOR: 'slurm', SVC_SLURM_CPUS: '1' };
    try {
      const first = Bun.spawn([SVC, 'run', DEMO_EXPERIMENT, '--config', DEMO_WORKFLOW], { cwd: root, env, stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
      const record = () => {
        const ck = onlyCheckpoint(root);
        const held = ck && existsSync(join(ck, 'slurm_allocations.json')) ? (JSON.parse(readFileSync(join(ck, 'slurm_allocations.json'), 'utf8')) as Record<string, { job: string }>) : {};
        return Object.fromEntries(Object.entries(held).map(([node, a]) => [node, a.job]));
      };
      // the root's four children at once: two run on the two CPUs, two wait for them
      for (let i = 0; i < 3000 && Object.keys(record()).length < 4; i++) await Bun.sleep(20);
      first.kill('SIGKILL');
      await first.exited;
      const left = record();
      expect(Object.keys(left).length).toBe(4);
      for (const id of Object.values(left)) expect(await live(id)).toBe(true);
      const checkpoint = onlyCheckpoint(root) ?? '';
      const resumed = Bun.spawn([SVC, 'resume', checkpoint], { cwd: root, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
      const [stderr, code] = await Promise.all([new Response(resumed.stderr).text(), resumed.exited]);
      expect(code, stderr).toBe(0);
      const ids = Object.values(left);
      expect(stderr).toContain(`kept the allocations of the nodes it runs again: ${ids.join(', ')}`);
      // each interrupted node runs again in the allocation it held
      for (const [nodeId, id] of Object.entries(left)) expect(stderr).toContain(`${nodeId}: allocation ${id}, kept from the run before`);
      const all = [...ids, ...[...stderr.matchAll(/: allocation (\d+)/gm)].map((m) => m[1] as string)];
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
