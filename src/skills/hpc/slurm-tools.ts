import { Type as T } from '@sinclair/typebox';
import { InputError } from '../../core/errors.ts';
import { CappedText } from '../../coding/capped-text.ts';
import { OUTPUT_MAX_CHARS } from '../../coding/run-process.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { openWorkDir, WorkDirParam } from '../../coding/work-dir.ts';
import { NodesParam, PartitionParam, slurmExecutor, submitToSlurm, WalltimeParam, walltimeSeconds, withDirectives } from './cluster.ts';

export const slurmSubmit = defineTool({
  name: 'slurm_submit',
  description:
    'Submit a batch script to Slurm, run in work_dir. Its own #SBATCH lines are kept (they win over nodes), account flags are dropped: the cluster default account is used. Returns {job_id, status, partition}; follow it with job_status.',
  params: toolParams({
    script: T.String({ description: 'the batch script text (bash), optionally with #SBATCH lines' }),
    job_name: T.String({ default: 'svc-job', description: 'the job name Slurm shows (default svc-job)' }),
    partition: PartitionParam,
    nodes: NodesParam,
    walltime: WalltimeParam,
    work_dir: WorkDirParam,
  }),
  async run(args, ctx) {
    if (args.script.trim() === '') throw new InputError('script is empty', 'give the batch script to run');
    const workDir = openWorkDir(args.work_dir, ctx.env);
    const script = withDirectives(args.script, [`--nodes=${args.nodes}`]);
    return submitToSlurm({ script, workDir, name: args.job_name, wallTimeS: walltimeSeconds(args.walltime) }, args.partition, ctx.env);
  },
});

const JobIdParam = T.String({ description: 'the job_id slurm_submit or a singularity tool returned' });

function jobId(raw: string): string {
  const id = raw.trim();
  if (id === '') throw new InputError('job_id is empty', 'give the job_id a submit returned');
  return id;
}

export const jobStatus = defineTool({
  name: 'job_status',
  description: `State of a submitted job: {status, exit_code, stdout, reason}. status is PENDING, RUNNING, COMPLETED, FAILED or ERROR; reason (TIMEOUT, CANCELLED, OUT_OF_MEMORY, NODE_FAIL) says why a job ended early; stdout keeps its first and last ${OUTPUT_MAX_CHARS / 2} characters.`,
  params: toolParams({ job_id: JobIdParam }),
  async run(args, ctx) {
    const id = jobId(args.job_id);
    const slurm = slurmExecutor(ctx.env);
    // state first: a job seen finished has written all its output
    const s = (await slurm.status([id])).get(id) ?? { state: 'ERROR' as const, exitCode: null };
    const logs = await slurm.logs(id);
    const stdout = new CappedText(OUTPUT_MAX_CHARS);
    stdout.push(logs.stdout);
    return { job_id: id, status: s.state, exit_code: s.exitCode, stdout: stdout.text(), ...(s.reason ? { reason: s.reason } : {}) };
  },
});

export const jobCancel = defineTool({
  name: 'job_cancel',
  description: 'Cancel a submitted job (scancel); job_status then reports it FAILED with reason CANCELLED. Returns {job_id, cancelled}.',
  params: toolParams({ job_id: JobIdParam }),
  async run(args, ctx) {
    const id = jobId(args.job_id);
    await slurmExecutor(ctx.env).cancel(id);
    return { job_id: id, cancelled: true };
  },
});
