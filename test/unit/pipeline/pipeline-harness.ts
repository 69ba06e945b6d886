import { chmodSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { disabledTools, listSkills } from '../../../src/core/config/skills.ts';
import { loadWorkflow } from '../../../src/core/config/workflow.ts';
import type { ModelClient } from '../../../src/llm/client.ts';
import { SkillPool } from '../../../src/mcp/pool.ts';
import { type PipelineResult, runPipeline } from '../../../src/pipeline/run.ts';

/** An executable that serves test/support/loop-skill.ts over MCP stdio, as a user's skill would be. */
export function loopSkillCommand(dir: string): string {
  const path = join(dir, 'loop-skill');
  writeFileSync(path, `#!/bin/sh\nexec '${process.execPath}' '${resolve(import.meta.dir, '../../support/loop-skill.ts')}'\n`);
  chmodSync(path, 0o755);
  return path;
}

export type PipelineRun = PipelineResult & { log: string[] };

/**
 * The post-search pipeline of a checkpoint under its own workflow.yaml (laid over the bundled
 * one), with real skill processes; memory at a closed port unless `env` names one.
 */
export async function runCheckpointPipeline(checkpointDir: string, projectRoot: string, env: Record<string, string>, model: ModelClient | string = 'none in this test'): Promise<PipelineRun> {
  const runEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: projectRoot, SVC_ROOT: projectRoot, SVC_CHECKPOINT_DIR: checkpointDir, MEMBACKEND_BASE_URL: 'http://127.0.0.1:9', SVC_MEMORY_LETTA_TIMEOUT_S: '2', ...env };
  const wf = loadWorkflow({ checkpointDir, env: runEnv }).workflow;
  const pool = new SkillPool({ skills: listSkills(wf, projectRoot), disabledTools: disabledTools(wf), env: runEnv });
  const log: string[] = [];
  try {
    const result = await runPipeline({ checkpointDir, projectRoot, workflow: wf, pool, env: runEnv, model, log: (l) => log.push(l) });
    return { ...result, log };
  } finally {
    await pool.close();
  }
}
