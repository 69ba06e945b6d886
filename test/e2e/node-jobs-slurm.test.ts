// The Slurm jobs a node's agent submits through hpc-skill (the real skill server, the real
// cluster) carry the run and the node, and are cancelled when that node ends, or when the run
// ends; a job another node or no node submitted stays. A local run's nodes submit too.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_MODEL, runDemo } from '../../scripts/record-demo.ts';
import { startModelServer } from '../support/model-server.ts';
import { type OpenAIChatRequest, researcherReply } from '../support/scripted-researcher.ts';
import { bareToolName, messagesOf, offeredTool, offersTools, promptName } from '../support/scripted-request.ts';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import { cancelNodeJobs } from '../../src/sandbox/node-jobs.ts';
import { lacks } from '../support/components.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

const PATH = process.env.PATH ?? '/usr/bin:/bin';

async function squeue(args: string[]): Promise<string> {
  const p = Bun.spawn(['squeue', '-h', ...args], { stdout: 'pipe', stderr: 'ignore' });
  return (await new Response(p.stdout).text()).trim();
}
const live = async (id: string) => ['PENDING', 'RUNNING', 'CONFIGURING'].includes(await squeue(['-t', 'all', '-o', '%T', '-j', id]));
async function gone(id: string): Promise<boolean> {
  for (let i = 0; i < 50 && (await live(id)); i++) await Bun.sleep(100);
  return !(await live(id));
}

describe.skipIf(lacks('slurm'))("the jobs a node's agent submits", () => {
  let dir: string;
  let checkpoint: string;
  let pool: SkillPool;
  const submitted: string[] = [];
  beforeAll(() => {
    dir = tempDir();
    checkpoint = join(dir, 'ckpt');
    mkdirSync(checkpoint);
    pool = new SkillPool({ skills: listSkills(bundledWorkflow(), dir), env: { PATH, HOME: dir, SVC_WORK_DIR: dir, SVC_CHECKPOINT_DIR: checkpoint }, program: SVC });
  });
  afterAll(async () => {
    if (submitted.length > 0) Bun.spawnSync(['scancel', ...submitted]);
    await pool.close();
    removeDir(dir);
  });

  async function submit(nodeId?: string): Promise<string> {
    const r = (await pool.call('slurm_submit', { script: 'sleep 300\n', job_name: 'node-job', walltime: '00:05:00' }, nodeId ? { nodeId } : {})) as { result: { job_id: string } };
    expect(r.result.job_id).toMatch(/^\d+$/);
    submitted.push(r.result.job_id);
    return r.result.job_id;
  }

  test('cancelled when their node ends, then with the run; one submitted outside a node stays', async () => {
    const [own, other, outside] = [await submit('node_1'), await submit('node_2'), await submit()];
    expect(await squeue(['-o', '%k', '-j', own])).toBe(`svc:${checkpoint}/node_1`);
    expect(await squeue(['-o', '%k', '-j', outside])).toBe('(null)');
    const said: string[] = [];
    const log = (m: string) => said.push(m);

    expect(await cancelNodeJobs(checkpoint, 'node_1', { PATH }, log)).toEqual([own]);
    expect(said).toEqual([`node_1: cancelled its Slurm jobs ${own}`]);
    expect(await gone(own)).toBe(true);
    expect(await live(other)).toBe(true);

    expect(await cancelNodeJobs(checkpoint, null, { PATH }, log)).toEqual([other]);
    expect(said.at(-1)).toBe(`cancelled the Slurm jobs the run's nodes left: ${other}`);
    expect(await gone(other)).toBe(true);
    expect(await live(outside)).toBe(true);
    expect(await cancelNodeJobs(checkpoint, null, { PATH }, log)).toEqual([]);
  }, 60_000);
});

/** The scripted researcher, whose agents first submit a long Slurm job of their node. */
function submitsFirst(body: OpenAIChatRequest, jobName: string) {
  const submitted = messagesOf(body).some((m) => m.tool_calls?.some((c) => bareToolName(c.function.name) === 'slurm_submit'));
  if (promptName(body) !== 'agent/system' || !offersTools(body) || submitted) return researcherReply(body);
  return { toolCalls: [{ id: 'call_submit', name: offeredTool(body, 'slurm_submit'), args: { script: 'sleep 300\n', job_name: jobName, walltime: '00:05:00' } }] };
}

test.skipIf(lacks('slurm'))("a local run: each node's job is cancelled when the node ends", async () => {
  const jobName = `svc-node-jobs-${process.pid}`;
  const server = startModelServer([], { respond: (body) => submitsFirst(body as OpenAIChatRequest, jobName) });
  let root = '';
  try {
    const run = await runDemo({ env: { SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: DEMO_MODEL } });
    root = run.root;
    expect(run.code, run.stderr).toBe(0);
    const ids = [...run.stderr.matchAll(/^svc: node_\w+: cancelled its Slurm jobs (\d+)$/gm)].map((m) => m[1] as string);
    expect(ids.length).toBe(5);
    for (const id of ids) expect(await gone(id)).toBe(true);
    expect(run.stderr).not.toContain("the run's nodes left");
  } finally {
    Bun.spawnSync(['scancel', '--me', `--name=${jobName}`]);
    server.stop();
    if (root) removeDir(root);
  }
}, 300_000);
