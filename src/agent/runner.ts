import { join } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import { envValue } from '../core/config/env-vars.ts';
import { oneLine } from '../core/errors.ts';
import { type Evaluate, type Evaluation, type NodeOutcome, type NodeRunner, type NodeTask, scoreOf } from '../search/contract.ts';
import { diffFiles, type FilesChanged, isSterile, RUN_ENV_FILE } from './files-diff.ts';
import { type LoopResult, reactLoop } from './loop.ts';
import { type MachineInfo, machineInfo } from './machine.ts';
import { buildReport, writeReport } from './report.ts';
import { nodeTools } from './tools.ts';
import { type NodeExec, nodeJobName } from '../sandbox/node-command.ts';
import { jobsNamed, readJobHost } from '../sandbox/job-state.ts';
import { MAX_TIMER_MS } from '../core/timers.ts';

const execOf = (task: NodeTask) => task.exec ?? task.ctx.exec;

/** Where a node's commands ran, as its report says: its Slurm allocation, PBS or LSF jobs of their own, or this machine (in the run's container when it has one). */
const executorOf = (task: NodeTask) => (task.exec?.slurm ? 'slurm' : (execOf(task)?.batch?.kind ?? 'local'));

/** The PBS or LSF jobs the node's commands ran as, oldest first; null on other executors. */
function batchJobsOf(task: NodeTask): string[] | null {
  const kind = execOf(task)?.batch?.kind;
  return kind ? jobsNamed(task.workDir, kind, nodeJobName(task.node.id)) : null;
}

/** Where the node's last PBS or LSF job ran, as the job wrote; null on other executors. */
function lastJobHost(task: NodeTask): string | null {
  return (batchJobsOf(task) ?? []).map((id) => readJobHost(task.workDir, id)).findLast((h) => h !== null) ?? null;
}

export type NodeRunnerDeps = { evaluate: Evaluate };

/**
 * Runs one node: the ReAct loop in the node's work directory, then the file diff against the
 * parent (a child that changed nothing is sterile and is not evaluated), the evaluation, and the
 * node report. It does not throw for anything the node does: failures end in the outcome.
 */
export function createNodeRunner(deps: NodeRunnerDeps): NodeRunner {
  return async (given: NodeTask): Promise<NodeOutcome> => {
    const task = { ...given, signal: withTimeLimit(given.signal, given.ctx.settings.timeoutNodeS) };
    const startedAt = new Date().toISOString();
    const loop = await runLoop(task);
    const parentDir = task.parent ? join(task.ctx.experimentsDir, task.parent.id) : null;
    let filesChanged: FilesChanged | null = null;
    try {
      filesChanged = diffFiles(parentDir, task.workDir);
    } catch (err) {
      loop.trace.push(`· file diff failed: ${oneLine(err)}`);
    }
    const judged = await judge(task, deps.evaluate, loop, filesChanged);
    const status = judged.failed ?? loop.status;
    const errorLog = [loop.error, judged.error].filter((e) => e !== null).join('; ') || null;
    // on the cluster, the commands ran on the allocation's node, or where the node's last job ran
    const here = await machineInfo();
    const host = task.exec?.slurm?.nodes || lastJobHost(task);
    // this machine's CPUs and compilers are not the compute node's: left unknown rather than false
    const machine = host ? { hostname: host, cpu_info: null, mem_total_kb: null, compilers: null } : here;
    writeRunEnv(task, machine, startedAt);
    const { path, error: reportError } = writeReport(task.workDir, task.node.id, () =>
      buildReport({
        node: task.node,
        status,
        startedAt,
        completedAt: new Date().toISOString(),
        filesChanged,
        workDir: task.workDir,
        whatWasDone: loop.summary || null,
        metrics: judged.metrics,
        parentScore: task.parent ? scoreOf(task.parent) : null,
        evaluatorReason: judged.evaluation?.reason ?? null,
        axisRationales: judged.evaluation?.axis_rationales ?? {},
        commands: loop.commands,
        toolCounts: loop.toolCounts,
        migrationSource: 'fresh',
        executor: executorOf(task),
        container: containerOf(execOf(task)),
        machine,
        slurm: slurmOf(task, loop),
        batchJobIds: batchJobsOf(task),
      }),
    );
    if (reportError) task.ctx.log(`${task.node.id}: ${reportError}`);
    return {
      status,
      artifacts: [...loop.artifacts, ...loop.declared.map((a) => (typeof a === 'string' ? { type: 'file', path: a } : a))],
      metrics: judged.metrics,
      has_real_data: judged.hasRealData,
      eval_summary: judged.evaluation?.reason || loop.summary || task.node.eval_summary,
      error_log: errorLog,
      trace_log: loop.trace,
      node_report_path: path,
    };
  };
}

/** The node keeps its own time limit too, so the limit holds whoever schedules it. */
function withTimeLimit(signal: AbortSignal, timeoutS: number): AbortSignal {
  if (!(timeoutS > 0)) return signal;
  return AbortSignal.any([signal, AbortSignal.timeout(Math.min(timeoutS * 1000, MAX_TIMER_MS))]);
}

async function runLoop(task: NodeTask): Promise<LoopResult> {
  try {
    const tools = await nodeTools(task.ctx.pool, task.workDir, task.node.id, task.signal, execOf(task));
    return await reactLoop(task, tools);
  } catch (err) {
    // a prompt or tool listing that breaks is the node's failure, not the run's
    const error = `agent loop failed: ${oneLine(err)}`;
    return { status: 'failed', summary: '', declared: [], artifacts: [], error, trace: [`· ${error}`], stopped: task.signal.aborted, commands: [], toolCounts: {}, steps: 0, stepLimit: false };
  }
}

type Judged = { metrics: Record<string, unknown>; hasRealData: boolean; evaluation: Evaluation | null; error: string | null; failed?: 'failed' };

async function judge(task: NodeTask, evaluate: Evaluate, loop: LoopResult, fc: FilesChanged | null): Promise<Judged> {
  if (task.parent !== null && fc !== null && isSterile(fc)) {
    loop.trace.push('· sterile: the node changed no file of its parent');
    return { metrics: { _sterile: true, _scientific_score: 0 }, hasRealData: false, evaluation: null, error: loop.status === 'success' ? 'sterile: the node changed no file' : null };
  }
  if (loop.status !== 'success') return { metrics: {}, hasRealData: false, evaluation: null, error: null };
  try {
    const evaluation = await evaluate({ ctx: task.ctx, node: task.node, workDir: task.workDir, artifacts: loop.artifacts, summary: loop.summary, signal: task.signal });
    return { metrics: evaluation.metrics, hasRealData: evaluation.has_real_data, evaluation, error: null };
  } catch (err) {
    if (task.signal.aborted) return { metrics: {}, hasRealData: false, evaluation: null, error: 'stopped during evaluation', failed: 'failed' };
    return { metrics: {}, hasRealData: false, evaluation: null, error: `evaluation failed: ${oneLine(err)}` };
  }
}

function slurmOf(task: NodeTask, loop: LoopResult): { job_id: string | null; partition: string | null; nodelist: string | null } {
  const submitted = loop.trace.map((l) => /Submitted batch job (\d+)|"job_id":\s*"?(\d+)/.exec(l)).findLast((m) => m !== null);
  return {
    // the node's own allocation, else a job its agent submitted
    job_id: task.exec?.slurm?.jobId ?? (submitted ? (submitted[1] ?? submitted[2] ?? null) : null),
    partition: envValue(task.ctx.env, 'SVC_SLURM_PARTITION') ?? null,
    nodelist: task.exec?.slurm?.nodes || (envValue(task.ctx.env, 'SLURM_NODELIST') ?? null),
  };
}

/** The node's machine, next to its report; a failure to write it is logged, never the node's. */
function writeRunEnv(task: NodeTask, machine: MachineInfo, startedAt: string): void {
  try {
    writeJsonAtomic(join(task.workDir, RUN_ENV_FILE), { node_id: task.node.id, started_at: startedAt, executor: executorOf(task), ...machine });
  } catch (err) {
    task.ctx.log(`${task.node.id}: ${RUN_ENV_FILE} not written: ${oneLine(err)}`);
  }
}

/** The container of the node's commands, as its report names it. */
function containerOf(exec: NodeExec | undefined): { runtime: string; image: string; digest: string | null } | null {
  const c = exec?.container;
  return c ? { runtime: c.runtime, image: c.image, digest: c.digest ?? null } : null;
}
