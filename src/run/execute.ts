import { existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { writeFileAtomic } from '../core/atomic.ts';
import { logFor } from '../core/log.ts';
import { findCheckpoint } from '../core/checkpoint/locate.ts';
import { checkpointStatus } from '../core/checkpoint/status.ts';
import { readTree } from '../core/checkpoint/tree.ts';
import { claimPid, PID_FILE, releasePid, runningPid } from '../core/checkpoint/pid.ts';
import { readRecord } from '../core/checkpoint/records.ts';
import { type Config, loadConfig } from '../core/config/config.ts';
import { mergedEnv } from '../core/config/environment.ts';
import { type Env, envValue } from '../core/config/env-vars.ts';
import { disabledTools, listSkills } from '../core/config/skills.ts';
import { BUNDLED_WORKFLOW_TEXT } from '../core/config/workflow.ts';
import { carriedFiles, workflowCopy, writeWorkflowCopy } from './checkpoint-workflow.ts';
import { ConflictError, InputError, oneLine } from '../core/errors.ts';
import { isFileAt } from '../core/paths.ts';
import { experimentsDirOf } from '../core/workspace.ts';
import { CASSETTE_FILE, checkReplayWorkflow, startCassette } from '../llm/cassette.ts';
import { requestShapingEnv, withRecordedEnv } from './request-env.ts';
import { checkpointFile } from '../llm/checkpoint-file.ts';
import { createModelClient, type ModelClient } from '../llm/client.ts';
import { readLimits } from '../llm/limits.ts';
import { SkillPool } from '../mcp/pool.ts';
import { type PipelineResult, runPipeline } from '../pipeline/run.ts';
import { IdeaFile } from '../schema/checkpoint.ts';
import { bestNode, type RunContext, type SearchNode } from '../search/contract.ts';
import { runsAgain } from '../search/search-tree.ts';
import { loadTree } from '../search/tree-store.ts';
import { createCheckpoint, namedCheckpoint } from './create-checkpoint.ts';
import { CORE_ROLES, isFatal, stopOnFatal } from './fatal-errors.ts';
import { checkModelsReachable } from '../llm/preflight.ts';
import { ensureIdeas, ensureMetricContract } from './ideas.ts';
import { withMemoryEmbedding } from '../memory/embedding-handle.ts';
import { openRunMemory, type RunMemory } from './memory-session.ts';
import { progressPrinter } from './progress.ts';
import { copyOutputToRunLog } from './run-log-tee.ts';
import { resolveRunSettings } from './settings.ts';
import { evaluatorSettings } from '../evaluate/settings.ts';
import { searchRunner } from './wiring.ts';
import { checkLibrary } from '../ideas/library.ts';
import { libraryPath } from '../ideas/retrieval-settings.ts';
import { checkNodeSandbox, type NodeSandbox } from '../sandbox/node-sandbox.ts';
import { nodeExecOf, sweepContainersCommand } from '../sandbox/node-command.ts';
import { NodeAllocations } from '../sandbox/allocations.ts';
import { cancelNodeJobs } from '../sandbox/node-jobs.ts';

export type RunRequest =
  | { kind: 'new'; experimentFile: string; configPath?: string; profile?: string }
  | { kind: 'resume'; checkpoint: string; configPath?: string };

/** How a run ended; `finished`: a resume found every node run and none failed, and did nothing. */
export type RunEnd = { checkpointDir: string; nodes: SearchNode[]; best: SearchNode | null; ended: 'done' | 'terminated' | 'stopped' | 'finished'; runId?: string; pipeline?: PipelineResult };

/**
 * One research run, new or resumed: settle the checkpoint, open memory, models and tools, make
 * the ideas once, search until the caps or a stop, then run the post-search pipeline. Everything the run decides is on disk
 * before it acts, so a killed run resumes from its checkpoint.
 */
export async function executeRun(req: RunRequest, env: Env, cwd: string, out: NodeJS.WriteStream = process.stderr): Promise<RunEnd> {
  if (req.kind === 'resume') {
    const finished = finishedRun(req.checkpoint, env, cwd);
    if (finished) {
      const ignored = loadConfig({ env, cwd, checkpointDir: finished.checkpointDir, configPath: req.configPath }).workflow.ignoredConfig;
      if (ignored) out.write(`${ignoredConfigNote(ignored)}\n`);
      return finished;
    }
  }
  const { dir, cfg, created, sandbox } = req.kind === 'new' ? await newCheckpoint(req, env, cwd) : await existingCheckpoint(req, env, cwd);
  // from here on everything the run says is in its checkpoint's log too, where the dashboard reads it
  const stopCopying = copyOutputToRunLog(dir);
  let model: ModelClient | null = null;
  let pool: SkillPool | null = null;
  let memory: RunMemory | null = null;
  let allocations: NodeAllocations | null = null;
  const settings = resolveRunSettings(cfg);
  const progress = progressPrinter(out, settings.maxNodes, () => model?.spentUsd() ?? 0);
  const log = (msg: string) => progress.line(msg);
  const stop = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (stop.signal.aborted) process.exit(sig === 'SIGINT' ? 130 : 143); // a second signal: leave now
    log(`${sig}: stopping; running nodes are ended and the tree is saved (send it again to quit at once)`);
    stop.abort(new Error(`the run was stopped (${sig})`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const baseEnv = { ...withMemoryEmbedding(withRecordedEnv(mergedEnv(cfg.env, cfg.dotenv), dir), cfg), SVC_CHECKPOINT_DIR: dir };
  try {
    log(`${req.kind === 'new' ? 'run' : 'resuming'} ${dir}`);
    if (cfg.workflow.ignoredConfig) log(ignoredConfigNote(cfg.workflow.ignoredConfig));
    memory = await openRunMemory(baseEnv, dir, { resume: req.kind === 'resume', log });
    log(memory.note);
    const runEnv = { ...baseEnv, ...memory.env };
    const client = createModelClient({ cfg, checkpointDir: dir, env: runEnv });
    model = stopOnFatal(client, stop);
    const wf = cfg.workflow.workflow;
    pool = new SkillPool({ skills: listSkills(wf, cfg.projectRoot), disabledTools: disabledTools(wf), env: runEnv });
    const problems: string[] = [];
    allocations = await nodeAllocations(sandbox, settings.timeoutNodeS, runEnv, dir, log);
    await cancelNodeJobs(dir, null, runEnv, log);
    const ctx: RunContext = {
      cfg,
      workflow: wf,
      settings,
      env: runEnv,
      checkpointDir: dir,
      runId: dir.split('/').pop() ?? dir,
      experimentsDir: experimentsDirOf(dir),
      goal: readFileSync(join(dir, 'experiment.md'), 'utf8'),
      model,
      pool,
      idea: () => readRecord(dir, 'idea.json', IdeaFile, problems),
      log,
      exec: nodeExecOf(sandbox),
      ...(allocations ? { allocations } : {}),
    };
    await ensureIdeas(ctx, stop.signal);
    const run = searchRunner(ctx, { env: baseEnv });
    await run.prepare(stop.signal);
    ctx.goal = readFileSync(join(dir, 'experiment.md'), 'utf8'); // with the promoted plan
    await ensureMetricContract(ctx, stop.signal);
    const result = await run.search(stop.signal, (nodes: SearchNode[]) => progress.nodes(nodes));
    progress.end();
    if (isFatal(stop.signal.reason)) {
      log(`the run stopped: ${oneLine(stop.signal.reason)}; once that is fixed, continue with svc resume ${dir}`);
      throw stop.signal.reason;
    }
    if (result.ended === 'stopped' || stop.signal.aborted) return { checkpointDir: dir, nodes: result.nodes, best: result.best, ended: 'stopped' };
    log('post-search pipeline');
    // the pipeline's own model calls degrade to deterministic text: one that fails must not stop the run
    const pipeline = await runPipeline({ checkpointDir: dir, projectRoot: cfg.projectRoot, workflow: wf, pool, env: runEnv, model: client, log, signal: stop.signal });
    return { checkpointDir: dir, nodes: result.nodes, best: result.best, ended: stop.signal.aborted ? 'stopped' : result.ended, pipeline };
  } catch (err) {
    // a new run that failed before it recorded anything of its own leaves no directory behind
    if (created && !hasRunRecords(dir)) {
      await Promise.allSettled([pool?.close(), memory?.close()]);
      pool = null;
      memory = null;
      releasePid(dir);
      rmSync(dir, { recursive: true, force: true });
      log(`nothing of the run was kept: ${dir} is removed`);
    }
    throw err;
  } finally {
    progress.end();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    // no allocation, nor job a node submitted, outlives the run, whatever ended it; the jobs once
    // the skills are closed, so no submission still under way is missed
    await allocations?.closeAll().catch(() => {});
    await pool?.close().catch(() => {});
    await cancelNodeJobs(dir, null, baseEnv, log);
    await memory?.close();
    releasePid(dir);
    stopCopying();
  }
}

/** The Slurm allocations a run's nodes hold, by node: what a resume of a run killed outright finds. */
const ALLOCATIONS_FILE = 'slurm_allocations.json';


/**
 * The allocations of a run on Slurm, taking over those a run killed outright left: a node this run
 * runs again keeps its own, the rest are cancelled before any node starts. Another executor holds
 * none, but still cancels what a Slurm run before it left.
 */
async function nodeAllocations(sandbox: NodeSandbox, budgetS: number, env: Env, dir: string, log: (msg: string) => void): Promise<NodeAllocations | null> {
  const { partition, cpus, memGb, gpus } = sandbox;
  // containers live in their daemon on the compute node: cancelling the allocation would leave them
  const sweep = (jobId: string) => sweepContainersCommand({ ...nodeExecOf(sandbox), slurm: { jobId } });
  const allocations = new NodeAllocations({ partition, cpus, memGb, gpus: gpus ?? 0, budgetS, env, record: join(dir, ALLOCATIONS_FILE), sweep });
  const again = new Set(loadTree(dir)?.nodes.filter((n) => runsAgain(n.status)).map((n) => n.id));
  const { kept, cancelled } = await allocations.takeOver((nodeId) => sandbox.executor === 'slurm' && again.has(nodeId));
  if (kept.length > 0) log(`kept the allocations of the nodes it runs again: ${kept.join(', ')}`);
  if (cancelled.length > 0) log(`cancelled the allocations the run had left: ${cancelled.join(', ')}`);
  return sandbox.executor === 'slurm' ? allocations : null;
}

/** What only a run writes: once one exists, the directory holds a run worth resuming. */
function hasRunRecords(dir: string): boolean {
  return ['tree.json', 'idea.json', 'launch_config.json'].some((f) => existsSync(join(dir, f)));
}

/**
 * The checkpoint of a new run: SVC_CHECKPOINT_DIR when it names one (a directory the dashboard
 * prepared with experiment.md and no tree yet is adopted; a missing one is created), else a new
 * `YYYYMMDDHHMMSS_<slug>` under the checkpoints directory. The workflow in force is copied in, so a
 * resume searches with the same settings.
 */
/** The checkpoint a run works in, claimed by this process; `created`: this run made the directory. */
type RunCheckpoint = { dir: string; cfg: Config; created: boolean; sandbox: NodeSandbox };

async function newCheckpoint(req: Extract<RunRequest, { kind: 'new' }>, env: Env, cwd: string): Promise<RunCheckpoint> {
  const text = readExperiment(req.experimentFile);
  // settings and prompt templates are checked before anything is created
  const first = loadConfig({ env, cwd, configPath: req.configPath, profile: req.profile });
  resolveRunSettings(first);
  evaluatorSettings(first.workflow.workflow, mergedEnv(first.env, first.dotenv));
  const runEnv = mergedEnv(first.env, first.dotenv);
  await checkModelsReachable(first, runEnv, CORE_ROLES);
  const sandbox = await checkNodeSandbox(first, runEnv);
  const named = env.SVC_CHECKPOINT_DIR;
  if (named && isFileAt(join(named, 'tree.json'))) throw new ConflictError(`${named} already holds a run`, `continue it with svc resume ${named}, or unset SVC_CHECKPOINT_DIR`);
  // the workflow the checkpoint will run with: one the dashboard put there, else --config's, else the bundled
  const prepared = named ? readTextOrNull(join(resolve(cwd, named), 'workflow.yaml')) : null;
  const runsWith = prepared === null ? first : loadConfig({ env, cwd, checkpointDir: resolve(cwd, named ?? ''), profile: req.profile });
  const library = libraryPath(runsWith);
  if (library) checkLibrary(library);
  const copy = first.workflow.source === 'config' ? workflowCopy(first.workflow) : { text: BUNDLED_WORKFLOW_TEXT, files: [] };
  const workflowText = prepared ?? copy.text;
  // a prepared workflow's files are in the checkpoint already: a cassette carries them when the workflow names them as they are there
  const own = prepared === null ? copy : workflowCopy(runsWith.workflow);
  const carried = own.text === workflowText ? carriedFiles(own) : {};
  const limits = readLimits(runEnv);
  const replaying = envValue(runEnv, 'SVC_BACKEND') === 'replay';
  if (replaying && limits.replayCassette) checkReplayWorkflow(limits.replayCassette, workflowText);
  const fill = (d: string) => {
    if (prepared === null) writeFileAtomic(join(d, 'workflow.yaml'), writeWorkflowCopy(copy, d));
    if (limits.record && !replaying) {
      // the memory embedding model as the run resolves it, wherever it was set, so a replay asks the same
      const left = startCassette(checkpointFile(d, CASSETTE_FILE), workflowText, carried, requestShapingEnv(withMemoryEmbedding(runEnv, first)));
      if (left.length) logFor('run').warn(`the cassette does not carry ${left.join(', ')} (too large): a replay of it needs --config with the workflow beside that file`);
    }
  };
  // a new directory appears whole, its PID file in it: a run killed from then on is resumed with its workflow
  const fillNew = (d: string) => {
    fill(d);
    writeFileAtomic(join(d, PID_FILE), `${process.pid}\n`);
  };
  const created = !(named && existsSync(resolve(cwd, named)));
  const dir = named ? namedCheckpoint(resolve(cwd, named), text, created ? fillNew : fill) : createCheckpoint(first.checkpointsRoot, text, fillNew).dir;
  claimPid(dir);
  try {
    return { dir, cfg: loadConfig({ env, cwd, checkpointDir: dir, profile: req.profile }), created, sandbox };
  } catch (err) {
    releasePid(dir);
    if (created) rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

function readTextOrNull(path: string): string | null {
  return isFileAt(path) ? readFileSync(path, 'utf8') : null;
}

const ignoredConfigNote = (path: string) =>
  `--config ${path} is not used: the checkpoint's workflow.yaml is, so the run goes on with the settings it started with (edit that copy to change them)`;

/**
 * A checkpoint whose search has nothing left for resume: it ran to its end (not stopped or killed
 * on the way, no process runs it) and no node failed. Checkpoints of the reference, without experiment.md,
 * are read alike. Null when there is work to continue.
 */
function finishedRun(checkpoint: string, env: Env, cwd: string): RunEnd | null {
  const dir = findCheckpoint(checkpoint, loadConfig({ env, cwd }).checkpointsRoot);
  const loaded = loadTree(dir);
  if (loaded === null || loaded.nodes.length === 0 || loaded.nodes.some((n) => n.status !== 'success')) return null;
  // svc records the end of a search; a tree of another tool's, all nodes run, is taken as ended
  if (loaded.svcState && loaded.state.ended === undefined) return null;
  if (checkpointStatus(dir, readTree(dir).tree).status !== 'done') return null;
  return { checkpointDir: dir, nodes: loaded.nodes, best: bestNode(loaded.nodes), ended: 'finished', runId: loaded.header.run_id || basename(dir) };
}

async function existingCheckpoint(req: Extract<RunRequest, { kind: 'resume' }>, env: Env, cwd: string): Promise<RunCheckpoint> {
  const root = loadConfig({ env, cwd }).checkpointsRoot;
  const dir = findCheckpoint(req.checkpoint, root);
  const pid = runningPid(dir);
  if (pid !== null && pid !== process.pid) throw new ConflictError(`${dir} is being run by process ${pid}`, 'wait for it to end, or stop it first');
  if (!isFileAt(join(dir, 'experiment.md'))) throw new InputError(`${dir} has no experiment.md`, 'resume a checkpoint that svc run created');
  const cfg = loadConfig({ env, cwd, checkpointDir: dir, configPath: req.configPath });
  const runEnv = mergedEnv(cfg.env, cfg.dotenv);
  await checkModelsReachable(cfg, runEnv, CORE_ROLES);
  const sandbox = await checkNodeSandbox(cfg, runEnv);
  // two resumes of one checkpoint started at once: exactly one runs it
  claimPid(dir);
  return { dir, cfg, created: false, sandbox };
}

function readExperiment(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new InputError(`experiment file ${file} does not exist`, 'give the path of an experiment Markdown file');
    if (code === 'EISDIR') throw new InputError(`${file} is a directory, not an experiment file`);
    throw new InputError(`cannot read ${file}: ${oneLine(err)}`);
  }
  if (!text.trim()) throw new InputError(`experiment file ${file} is empty`, 'describe the goal of the experiment in it');
  return text;
}
