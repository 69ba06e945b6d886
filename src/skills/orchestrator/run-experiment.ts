import { type Static, Type as T } from '@sinclair/typebox';
import type { Env } from '../../core/config/env-vars.ts';
import { minutesToWalltime } from '../../core/config/settings.ts';
import { parseLaunchRequest } from '../../run/launch-request.ts';
import { requestEnv } from '../../run/run-env.ts';
import { runDirOf } from '../../run/run-ids.ts';
import { writeRunMeta } from '../../run/run-meta.ts';
import { startRun } from '../../run/start-run.ts';
import { launchSubExperiment } from '../../run/sub-experiment.ts';
import type { RunSupervisor } from '../../run/supervisor.ts';
import { KEY_VARIABLE } from '../../core/config/env-vars.ts';
import { BACKENDS, type Backend } from '../../llm/route.ts';
import { toolParams } from '../../mcp/tool.ts';
import { orchestratorCheckpoints } from './workspace.ts';

/** The arguments of run_experiment. */
export const RunExperimentParams = toolParams({
  experiment_md: T.String({ minLength: 1, description: 'the experiment description, Markdown' }),
  max_nodes: T.Integer({ minimum: 1, maximum: 100_000, default: 10, description: 'node cap of the search' }),
  model: T.Optional(T.String({ minLength: 1, maxLength: 256, description: 'model id' })),
  max_recursion_depth: T.Integer({ minimum: 0, maximum: 100, default: 3, description: 'how deep sub-experiments of this run may nest' }),
  parent_run_id: T.Optional(T.String({ minLength: 1, maxLength: 255, description: 'start a sub-experiment of this run' })),
  llm_backend: T.Optional(T.String({ minLength: 1, description: 'model backend (localllm, providera, providerb, openai-compatible, replay)' })),
  llm_api_key: T.Optional(T.String({ minLength: 1, description: 'key for the backend; given only to the run process, never written to disk' })),
  llm_base_url: T.Optional(T.String({ minLength: 1, description: 'API base URL of an openai-compatible server' })),
  executor: T.Optional(T.Union([T.Literal('local'), T.Literal('slurm'), T.Literal('pbs'), T.Literal('lsf')])),
  cpus: T.Optional(T.Integer({ minimum: 1, description: 'CPUs per job' })),
  timeout_minutes: T.Optional(T.Integer({ minimum: 1, description: 'wall time per job, minutes' })),
  retrieval_backend: T.Optional(T.Union([T.Literal('scholar_a'), T.Literal('scholar_b'), T.Literal('both')])),
});
export type RunExperimentArgs = Static<typeof RunExperimentParams>;

/** What the orchestrator needs to start runs: its supervisor, and the svc program (this binary by default). */
export type OrchestratorDeps = { supervisor: RunSupervisor; program?: string[] };

const ALIASES: Readonly<Record<string, Backend>> = { openai: 'providera', anthropic: 'providerb', ollama: 'localllm', vllm: 'openai-compatible' };

/**
 * run_experiment: starts `svc run` in the orchestrator workspace, or a sub-experiment of
 * `parent_run_id`. Choices go to the run's environment and launch_config.json; an API key goes
 * only to the environment of that one process, under the variable its backend reads.
 */
export async function runExperiment(args: RunExperimentArgs, env: Env, deps: OrchestratorDeps): Promise<{ run_id: string; checkpoint_path: string; pid: number; parent_run_id: string | null }> {
  const req = parseLaunchRequest(defined({ experiment_md: args.experiment_md, model: args.model, provider: args.llm_backend, max_nodes: args.max_nodes }));
  const extra: Record<string, string> = defined({
    LLM_API_BASE: args.llm_base_url,
    SVC_EXECUTOR: args.executor,
    SVC_SLURM_CPUS: args.cpus?.toString(),
    SVC_SLURM_WALLTIME: args.timeout_minutes === undefined ? undefined : minutesToWalltime(args.timeout_minutes),
    SVC_RETRIEVAL_BACKEND: args.retrieval_backend,
  });
  const secretEnv = args.llm_api_key ? { [keyVariable(req.provider ?? env.SVC_BACKEND)]: args.llm_api_key } : undefined;
  const root = orchestratorCheckpoints(env);
  const host = { checkpointsRoot: root, env, cwd: process.cwd(), supervisor: deps.supervisor, program: deps.program };
  if (args.parent_run_id !== undefined) {
    const child = await launchSubExperiment({
      ...host,
      parentCheckpoint: runDirOf(root, args.parent_run_id),
      experiment_md: req.experiment_md,
      model: req.model,
      provider: req.provider,
      max_nodes: req.max_nodes,
      max_recursion_depth: args.max_recursion_depth,
      extraChoices: extra,
      secretEnv,
    });
    return { run_id: child.run_id, checkpoint_path: child.checkpoint_path, pid: child.pid, parent_run_id: child.parent_run_id };
  }
  const started = await startRun({
    ...host,
    markdown: req.experiment_md,
    choices: { ...requestEnv(req), ...extra },
    secretEnv,
    profile: null,
    launcher: 'orchestrator',
    // a top-level run records the recursion limit its sub-experiments will be held to
    prepare: (dir, runId) =>
      writeRunMeta(dir, { run_id: runId, parent_run_id: null, recursion_depth: 0, max_recursion_depth: args.max_recursion_depth, created_at: new Date().toISOString(), checkpoint_dir: dir, inherit_idea_index: null }),
  });
  return { run_id: started.run_id, checkpoint_path: started.checkpoint_path, pid: started.pid, parent_run_id: null };
}

/** The variable the backend reads its key from; LLM_API_KEY for one that names none. */
function keyVariable(backend: string | undefined): string {
  const key = (backend ?? '').trim().toLowerCase();
  const canonical = (BACKENDS as readonly string[]).includes(key) ? (key as Backend) : ALIASES[key];
  return (canonical && KEY_VARIABLE[canonical]) || 'LLM_API_KEY';
}

function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}
