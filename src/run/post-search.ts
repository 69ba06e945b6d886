import { join } from 'node:path';
import { findCheckpoint } from '../core/checkpoint/locate.ts';
import { claimPid, releasePid } from '../core/checkpoint/pid.ts';
import { loadConfig } from '../core/config/config.ts';
import { mergedEnv } from '../core/config/environment.ts';
import type { Env } from '../core/config/env-vars.ts';
import { disabledTools, listSkills } from '../core/config/skills.ts';
import { InputError } from '../core/errors.ts';
import { isFileAt } from '../core/paths.ts';
import { createModelClient } from '../llm/client.ts';
import { SkillPool } from '../mcp/pool.ts';
import { type PipelineResult, runPipeline } from '../pipeline/run.ts';
import { pipelineStages } from '../pipeline/stages.ts';
import { openRunMemory, type RunMemory } from './memory-session.ts';
import { planStage } from './run-stage.ts';
import { copyOutputToRunLog } from './run-log-tee.ts';

export type PostSearchRequest = { checkpoint: string; configPath?: string; stage?: string; /** tool arguments by stage, over the workflow's (svc paper's flags) */ overrides?: Record<string, Record<string, unknown>> };

/**
 * `svc paper`: the post-search pipeline of a checkpoint whose search has run, or one stage of it,
 * with the checkpoint's workflow and the skills it names. The checkpoint is held (its PID file)
 * for the duration, so a run or a second pipeline cannot work on it at the same time.
 */
export async function runPostSearch(req: PostSearchRequest, env: Env, cwd: string, log: (line: string) => void): Promise<PipelineResult & { checkpointDir: string }> {
  const root = loadConfig({ env, cwd }).checkpointsRoot;
  const dir = findCheckpoint(req.checkpoint, root);
  if (!isFileAt(join(dir, 'tree.json'))) throw new InputError(`${dir} has no tree.json: the search has not run`, `run it first: svc run <experiment.md>, or svc resume ${dir}`);
  const cfg = loadConfig({ env, cwd, checkpointDir: dir, configPath: req.configPath });
  const wf = cfg.workflow.workflow;
  const only = req.stage === undefined ? undefined : postSearchStage(req.stage, wf);
  claimPid(dir);
  // what the pipeline says is in the checkpoint's log too, where the dashboard reads it
  const stopCopying = copyOutputToRunLog(dir);
  const baseEnv = { ...mergedEnv(cfg.env, cfg.dotenv), SVC_CHECKPOINT_DIR: dir };
  let memory: RunMemory | null = null;
  let pool: SkillPool | null = null;
  try {
    // the memory the run used, served here as a run serves it, for the pre-flight's verified context
    memory = await openRunMemory(baseEnv, dir, { resume: false, log });
    const runEnv = { ...baseEnv, ...memory.env };
    pool = new SkillPool({ skills: listSkills(wf, cfg.projectRoot), disabledTools: disabledTools(wf), env: runEnv });
    const model = createModelClient({ cfg, checkpointDir: dir, env: runEnv });
    const result = await runPipeline({ checkpointDir: dir, projectRoot: cfg.projectRoot, workflow: wf, pool, env: runEnv, model, only, log, ...(req.overrides ? { overrides: req.overrides } : {}) });
    return { ...result, checkpointDir: dir };
  } finally {
    await pool?.close().catch(() => {});
    await memory?.close();
    releasePid(dir);
    stopCopying();
  }
}

/** A stage of the post-search pipeline by name; `paper` means all of them. */
function postSearchStage(stage: string, wf: Parameters<typeof planStage>[1]): string | undefined {
  const plan = planStage(stage, wf);
  if (plan.kind !== 'post_search') throw new InputError(`'${stage}' is a stage of the search, not of the post-search pipeline`, `continue the search with svc resume`);
  if (stage === 'paper') return undefined;
  if (!pipelineStages(wf).some((s) => s.stage === stage)) throw new InputError(`stage '${stage}' is switched off in this workflow`, 'set enabled: true on it in the workflow file');
  return stage;
}
