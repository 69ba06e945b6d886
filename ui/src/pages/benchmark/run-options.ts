// The options of a run request as the run form holds them, and the request they make.

export const SANDBOX_KINDS = ['local', 'docker', 'apptainer', 'singularity', 'slurm'] as const;

/** Text as typed; empty means the server's default. */
export type RunOptions = {
  rubricModel: string;
  twoStage: boolean;
  agentModel: string;
  timeLimitSec: string;
  sandboxKind: string;
  containerImage: string;
  iterativeAgent: boolean;
  partition: string;
  nodes: string;
  gpusPerTask: string;
  gpuType: string;
  memoryGbPerNode: string;
  exclusive: boolean;
  constraint: string;
  extraSbatchArgs: string;
  judgeModel: string;
  nRuns: string;
  codeOnly: boolean;
};

export const DEFAULT_OPTIONS: RunOptions = {
  rubricModel: '',
  twoStage: true,
  agentModel: '',
  timeLimitSec: '43200',
  sandboxKind: '',
  containerImage: '',
  iterativeAgent: false,
  partition: '',
  nodes: '',
  gpusPerTask: '',
  gpuType: '',
  memoryGbPerNode: '',
  exclusive: false,
  constraint: '',
  extraSbatchArgs: '',
  judgeModel: '',
  nRuns: '',
  codeOnly: false,
};

type Configs = { rubric_config: Record<string, unknown>; reproduce_config: Record<string, unknown>; judge_config: Record<string, unknown> };

/** Only what was given is sent; a number that is not one is sent as typed, for the API to name. */
export function configsOf(o: RunOptions): Configs {
  const text = (v: string) => (v.trim() === '' ? undefined : v.trim());
  const int = (v: string) => (v.trim() === '' ? undefined : /^\d+$/.test(v.trim()) ? Number(v.trim()) : v.trim());
  const slurm = o.sandboxKind === 'slurm';
  const reproduce = {
    model: text(o.agentModel),
    time_limit_sec: int(o.timeLimitSec),
    sandbox_kind: text(o.sandboxKind),
    container_image: text(o.containerImage),
    iterative_agent: o.iterativeAgent || undefined,
    ...(slurm
      ? {
          partition: text(o.partition),
          nodes: int(o.nodes),
          gpus_per_task: int(o.gpusPerTask),
          gpu_type: text(o.gpuType),
          memory_gb_per_node: int(o.memoryGbPerNode),
          exclusive: o.exclusive || undefined,
          constraint: text(o.constraint),
          extra_sbatch_args: o.extraSbatchArgs.trim() ? o.extraSbatchArgs.split('\n').map((a) => a.trim()).filter(Boolean) : undefined,
        }
      : {}),
  };
  return {
    rubric_config: defined({ model: text(o.rubricModel), two_stage: o.twoStage }),
    reproduce_config: defined(reproduce),
    judge_config: defined({ model: text(o.judgeModel), n_runs: int(o.nRuns), code_only: o.codeOnly || undefined }),
  };
}

function defined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
