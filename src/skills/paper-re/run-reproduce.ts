import { Type as T } from '@sinclair/typebox';
import { loadConfig } from '../../core/config/config.ts';
import { InputError } from '../../core/errors.ts';
import { resolveInside } from '../../core/paths.ts';
import { printable } from '../../core/text.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { runReproduce } from '../../reproduce/run-reproduce.ts';
import { PREFERENCE, type RequestedSandbox } from '../../reproduce/sandbox-choice.ts';
import type { SlurmFlags } from '../../reproduce/slurm-job.ts';
import { namedPartition, resolvePartition } from '../../sandbox/partition.ts';
import { checkGpuRequest } from '../../sandbox/preconditions.ts';
import { systemRunner } from '../../sandbox/slurm-runner.ts';
import { checkpointDirArg } from '../checkpoint-path.ts';
import { orsSetting } from '../replicate/settings.ts';
import { experimentLine, walltimeSeconds } from '../hpc/cluster.ts';

const SANDBOXES = ['auto', ...PREFERENCE] as const;
const text = (description: string) => T.Optional(T.String({ description }));
/** A count as a number, or as the text a workflow template renders ("{{resources.cpus}}"). */
const count = (description: string) => T.Union([T.Integer({ minimum: 0 }), T.String({ pattern: '^\\s*\\d*\\s*$' })], { default: 0, description });

/** Without a walltime: the global timeout and a minute for the scheduler, else half a day (a reproduction's usual budget). */
const DEFAULT_WALLTIME_S = 12 * 3600;

export const runReproduceTool = defineTool({
  name: 'run_reproduce',
  description:
    "Run the reproduction's reproduce.sh once in a sandbox and record what happened. It runs in repo_dir's submission/ when the repository was built there (a stray top-level reproduce.sh is then ignored), its output streamed to reproduce.log beside it. " +
    'sandbox_kind auto (default, or the ors.phase1_sandbox_kind setting, SVC_PHASE1_SANDBOX) takes slurm when sbatch exists and a partition is named, else docker unless this is a cluster login node, else apptainer, singularity, local. ' +
    'A kind named that cannot run here (docker daemon unreachable, apptainer or singularity missing, sbatch missing or no partition) is an error, unless SVC_PHASE1_ALLOW_FALLBACK=1: then the next kind that can run is used and fallback says so. ' +
    'A GPU request where the cluster has no generic resources fails unless SVC_SLURM_ALLOW_NO_GRES=1. The local sandbox has apply_patch and applypatch on PATH. reproduce.sh gets the environment less svc\'s credentials (provider keys, tokens, passwords), in every sandbox. timeout_global_sec stops the whole run (process group, docker kill, scancel). ' +
    'Writes ors_phase1.json into the checkpoint and returns it: {sandbox_kind, fallback?, passed_over?, exit_code, timed_out, wall_time_sec, log_path, started_at, ended_at, command, repo_dir, submission_dir, rubric_path, image?, job_id?, partition?}.',
  params: toolParams({
    rubric_path: text('the rubric the reproduction is graded with (recorded; inside the checkpoint)'),
    repo_dir: T.String({ description: 'the directory holding reproduce.sh (or submission/reproduce.sh): inside the checkpoint, absolute or relative to it' }),
    sandbox_kind: T.Optional(T.Union(SANDBOXES.map((k) => T.Literal(k)), { description: `one of ${SANDBOXES.join(', ')}; default the ors.phase1_sandbox_kind setting (SVC_PHASE1_SANDBOX), else auto` })),
    container_image: text('the image of a docker, apptainer or singularity sandbox (bench-env and bench-reproducer mean their :latest tags); default SVC_PHASE1_DOCKER_IMAGE / SVC_PHASE1_APPTAINER_IMAGE / SVC_PHASE1_SINGULARITY_IMAGE'),
    timeout_global_sec: T.Number({ minimum: 0, default: 0, description: 'seconds the whole reproduction may take before it is stopped and recorded timed_out (0: the ors.phase1_max_runtime_sec setting when saved, else no limit)' }),
    partition: text('Slurm partition; default the experiment file, SVC_SLURM_PARTITION, SLURM_DEFAULT_PARTITION, else the cluster default'),
    cpus: count('CPUs of the Slurm job (0: the partition default)'),
    walltime: text('Slurm time limit, [D-]HH:MM:SS; default timeout_global_sec plus a minute, else 12:00:00'),
    gpus_per_task: T.Integer({ minimum: 0, default: 0, description: 'GPUs of the Slurm job (default 0)' }),
    gpu_type: text('GPU type for the gres request, such as a100'),
    memory_gb_per_node: T.Number({ minimum: 0, default: 0, description: 'memory of the Slurm job, GB (0: the partition default)' }),
    exclusive: T.Boolean({ default: false, description: 'the Slurm job has its node to itself' }),
    extra_sbatch_args: T.Array(T.String(), { default: [], description: 'more sbatch options, one --option[=value] each' }),
    checkpoint_dir: text('the run checkpoint (default SVC_CHECKPOINT_DIR)'),
  }),
  // the run's own limit is the caller's to set: a reproduction may take half a day
  timeoutS: 48 * 3600,
  run: async (args, ctx) => {
    const checkpointDir = checkpointDirArg(args.checkpoint_dir, ctx.env);
    const repoDir = resolveInside(checkpointDir, args.repo_dir, 'repo_dir');
    const rubricPath = args.rubric_path?.trim() ? resolveInside(checkpointDir, args.rubric_path, 'rubric_path') : null;
    const cfg = loadConfig({ env: ctx.env, checkpointDir });
    const experiment = experimentLine(ctx.env);
    const explicit = args.partition?.trim() || undefined;
    const partitionNamed = namedPartition({ explicit, experiment, env: ctx.env, cfg }) !== null;
    const timeoutSec = args.timeout_global_sec || Number(orsSetting(cfg, 'ors.phase1_max_runtime_sec') ?? 0);
    const slurm = async (): Promise<SlurmFlags> => {
      const part = await resolvePartition({ explicit, experiment, env: ctx.env, cfg, runner: systemRunner(ctx.env) });
      const gpu = await checkGpuRequest(args.gpus_per_task, ctx.env, part.name);
      const cpus = countOf(args.cpus, 'cpus');
      return {
        partition: part.name,
        wallTimeS: args.walltime?.trim() ? walltimeSeconds(args.walltime) : timeoutSec > 0 ? Math.ceil(timeoutSec) + 60 : DEFAULT_WALLTIME_S,
        ...(cpus ? { cpus } : {}),
        ...(args.memory_gb_per_node ? { memGb: args.memory_gb_per_node } : {}),
        ...(gpu.gpus ? { gpus: gpu.gpus } : {}),
        ...(args.gpu_type ? { gpuType: args.gpu_type } : {}),
        ...(args.exclusive ? { exclusive: true } : {}),
        extra: args.extra_sbatch_args,
      };
    };
    return runReproduce({
      checkpointDir,
      repoDir,
      rubricPath,
      sandbox: args.sandbox_kind ?? ((orsSetting(cfg, 'ors.phase1_sandbox_kind') as RequestedSandbox | null) ?? 'auto'),
      image: args.container_image?.trim() || null,
      timeoutSec,
      partitionNamed,
      slurm,
      env: ctx.env,
      ...(ctx.grantedEnv ? { grantedEnv: ctx.grantedEnv } : {}),
      signal: ctx.signal,
    });
  },
});

function countOf(v: number | string, what: string): number {
  const n = typeof v === 'number' ? v : v.trim() === '' ? 0 : Number(v);
  if (!Number.isSafeInteger(n) || n < 0) throw new InputError(`${what} '${printable(String(v))}' is not a count`);
  return n;
}
