import { createNodeRunner } from '../agent/runner.ts';
import { oneLine } from '../core/errors.ts';
import { evaluateNode } from '../evaluate/index.ts';
import { cancelNodeJobs } from '../sandbox/node-jobs.ts';
import type { NodeRunner, RunContext, SearchNode } from '../search/contract.ts';
import type { LineageDecision } from '../search/lineage.ts';
import { type PlanPromoteMode, promotePlan } from '../search/plan-promote.ts';
import { chooseRootIdea } from '../search/root-choice.ts';
import { runSearch, type SearchResult } from '../search/scheduler.ts';
import type { RunHost } from './start-run.ts';
import { launchSubExperiment } from './sub-experiment.ts';
import { RunSupervisor } from './supervisor.ts';

/**
 * How a run starts its lineage children: the environment the run itself was started with, not
 * the run's own (which names servers this process serves, such as its embedded memory, and which
 * go away when it ends, long before a child does).
 */
export type ChildLauncher = Pick<RunHost, 'env' | 'program'>;

/**
 * The parts of a run put together: the root idea choice and the plan in experiment.md before the
 * search; the search with the agent running each node and the evaluator scoring it; a lineage
 * switch or fan-out starting a child run on the chosen idea.
 */
export function searchRunner(ctx: RunContext, launcher: ChildLauncher) {
  return {
    async prepare(signal: AbortSignal): Promise<void> {
      await chooseRootIdea(ctx, signal);
      const idea = ctx.idea()?.ideas[0] ?? null;
      if (promotePlan(ctx.checkpointDir, idea, ctx.workflow.plan_promote as PlanPromoteMode)) ctx.log(`plan of '${idea?.title}' written into experiment.md (plan_promote ${ctx.workflow.plan_promote})`);
    },
    search(signal: AbortSignal, onProgress: (nodes: SearchNode[]) => void): Promise<SearchResult> {
      return runSearch(ctx, onItsAllocation(ctx, withItsJobs(ctx, createNodeRunner({ evaluate: evaluateNode }))), { signal, onProgress, onLineage: (d) => startChildRun(ctx, d, launcher) });
    },
  };
}

/**
 * On the cluster, each node runs in an allocation of its own, held from its start to its end:
 * its commands are steps in it, and it is cancelled when the node ends, however it ends.
 */
function onItsAllocation(ctx: RunContext, runNode: NodeRunner): NodeRunner {
  const allocations = ctx.allocations;
  if (!allocations) return runNode;
  return async (task) => {
    const { jobId, nodes, kept } = await allocations.open(task.node.id, task.signal);
    ctx.log(`${task.node.id}: allocation ${jobId}${kept ? ', kept from the run before' : ''}`);
    try {
      return await runNode({ ...task, exec: { ...ctx.exec, slurm: { jobId, nodes } } });
    } finally {
      await allocations.close(task.node.id);
    }
  };
}

/**
 * The Slurm jobs a node's agent submitted (hpc-skill) end with the node, however it ends and
 * wherever its own commands ran: a local run's agent can submit to a cluster too.
 */
function withItsJobs(ctx: RunContext, runNode: NodeRunner): NodeRunner {
  return async (task) => {
    try {
      return await runNode(task);
    } finally {
      await cancelNodeJobs(ctx.checkpointDir, task.node.id, ctx.env, (msg) => ctx.log(msg));
    }
  };
}

/** A lineage switch or fan-out: a child run beside this one, seeded with the chosen idea. */
export async function startChildRun(ctx: RunContext, d: LineageDecision, launcher: ChildLauncher): Promise<void> {
  if (d.action !== 'switch_to_idea' && d.action !== 'fanout') return;
  try {
    const child = await launchSubExperiment({
      checkpointsRoot: ctx.cfg.checkpointsRoot,
      env: launcher.env,
      program: launcher.program,
      cwd: process.cwd(),
      supervisor: new RunSupervisor(),
      parentCheckpoint: ctx.checkpointDir,
      inherit_idea_index: d.target_idea_index ?? undefined,
    });
    ctx.log(`lineage ${d.action}: child run ${child.checkpoint_path} (pid ${child.pid}) on idea ${d.target_idea_index}`);
  } catch (err) {
    ctx.log(`lineage ${d.action}: no child run: ${oneLine(err)}`);
    throw err;
  }
}
