import { join } from 'node:path';
import { findCheckpoint } from '../core/checkpoint/locate.ts';
import { claimPid, releasePid } from '../core/checkpoint/pid.ts';
import { loadConfig } from '../core/config/config.ts';
import { mergedEnv } from '../core/config/environment.ts';
import type { Env } from '../core/config/env-vars.ts';
import { disabledTools, listSkills } from '../core/config/skills.ts';
import { InputError } from '../core/errors.ts';
import { isFileAt } from '../core/paths.ts';
import { SkillPool } from '../mcp/pool.ts';
import { type PipelineResult, runPipeline } from '../pipeline/run.ts';
import { pipelineStages } from '../pipeline/stages.ts';
import { planStage } from './run-stage.ts';

export type PostSearchRequest = { checkpoint: string; configPath?: string; stage?: string };

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
  const runEnv = { ...mergedEnv(cfg.env, cfg.dotenv), SVC_CHECKPOINT_DIR: dir };
  const pool = new SkillPool({ skills: listSkills(wf, cfg.projectRoot), disabledTools: disabledTools(wf), env: runEnv });
  try {
    const result = await runPipeline({ checkpointDir: dir, projectRoot: cfg.projectRoot, workflow: wf, pool, env: runEnv, only, log });
    return { ...result, checkpointDir: dir };
  } finally {
    await pool.close().catch(() => {});
    releasePid(dir);
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
