import { Type as T } from '@sinclair/typebox';
import { runState } from '../../core/checkpoint/state.ts';
import { runDirOf } from '../../run/run-ids.ts';
import { listChildren, listRuns, runRecord } from '../../run/run-records.ts';
import { defineTool, toolParams, type ToolDef } from '../../mcp/tool.ts';
import { findPaper } from './paper.ts';
import { type OrchestratorDeps, RunExperimentParams, runExperiment } from './run-experiment.ts';
import { orchestratorCheckpoints } from './workspace.ts';

const RunId = T.String({ minLength: 1, maxLength: 255, description: 'run id (the checkpoint directory name), as run_experiment or list_runs gave it' });

/** The orchestrator's tools, over the runs of its workspace and the processes it started. */
export function orchestratorTools(deps: OrchestratorDeps): ToolDef<any>[] {
  const runExperimentTool = defineTool({
    name: 'run_experiment',
    description: 'Start a research run (svc run) on an experiment description, or a sub-experiment of parent_run_id. Returns its run_id at once; follow it with get_status.',
    params: RunExperimentParams,
    run: (args, ctx) => runExperiment(args, ctx.env, deps),
  });

  const getStatus = defineTool({
    name: 'get_status',
    description: 'Where a run stands: running or not, its exit code when this orchestrator started it, node counts, best node, cost.',
    params: toolParams({ run_id: RunId }),
    run: ({ run_id }, ctx) => {
      const dir = runDirOf(orchestratorCheckpoints(ctx.env), run_id);
      const record = runRecord(dir);
      const state = runState(dir, () => ({ provider: '', model: '' }), deps.supervisor.forCheckpoint(dir));
      return { run_id, parent_run_id: record.parent_run_id, recursion_depth: record.recursion_depth ?? 0, ...state };
    },
  });

  const listRunsTool = defineTool({
    name: 'list_runs',
    description: 'Every run of the orchestrator workspace, newest first, with its parent and node counts.',
    params: toolParams({}),
    run: (_args, ctx) => ({ runs: listRuns(orchestratorCheckpoints(ctx.env)) }),
  });

  const listChildrenTool = defineTool({
    name: 'list_children',
    description: 'The sub-experiments whose parent is run_id.',
    params: toolParams({ run_id: RunId }),
    run: ({ run_id }, ctx) => ({ run_id, children: listChildren(orchestratorCheckpoints(ctx.env), run_id) }),
  });

  const getPaper = defineTool({
    name: 'get_paper',
    description: 'The paper of a run (LaTeX source inline, or where the PDF is); says so when there is none yet.',
    params: toolParams({ run_id: RunId }),
    run: ({ run_id }, ctx) => findPaper(runDirOf(orchestratorCheckpoints(ctx.env), run_id), run_id),
  });

  return [runExperimentTool, getStatus, listRunsTool, listChildrenTool, getPaper];
}
