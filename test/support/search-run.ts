import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/core/config/config.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { experimentsDirOf } from '../../src/core/workspace.ts';
import { createModelClient } from '../../src/llm/client.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import type { IdeaFile } from '../../src/schema/checkpoint.ts';
import type { Workflow } from '../../src/schema/workflow.ts';
import type { NodeOutcome, RunContext, RunSettings } from '../../src/search/contract.ts';
import { BUNDLED_PROMPTS } from '../../src/prompts/bundled.ts';

/** Where no memory server listens (port 9 is discard, closed on test machines): a search test reads no stray memory. */
export const CLOSED_MEMORY_URL = 'http://127.0.0.1:9';

export const GOAL = '# Faster sort\n\nMake the sort of 1M integers faster.\n';

export type SearchRun = { ctx: RunContext; logs: string[] };

/**
 * The RunContext of a search test: a checkpoint `<dir>/workspace/checkpoints/<runId>` holding
 * experiment.md, a real model client pointed at `modelUrl` (an OpenAI-compatible server), a
 * skill pool with no skills (the search calls none), memory at `memoryUrl` (else none reachable).
 */
export function searchContext(dir: string, modelUrl: string, o: { runId?: string; settings?: Partial<RunSettings>; workflow?: (w: Workflow) => void; goal?: string; record?: boolean; memoryUrl?: string } = {}): SearchRun {
  const runId = o.runId ?? 'run1';
  const checkpointDir = join(dir, 'workspace', 'checkpoints', runId);
  mkdirSync(checkpointDir, { recursive: true });
  mkdirSync(join(dir, 'home'), { recursive: true });
  const goal = o.goal ?? GOAL;
  writeFileSync(join(checkpointDir, 'experiment.md'), goal);
  const env = { HOME: join(dir, 'home'), SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${modelUrl}/v1`, SVC_MODEL: 'qwen3:4b', SVC_LLM_MAX_RETRIES: '0', SVC_LLM_RECORD: o.record ? 'on' : 'off', MEMBACKEND_BASE_URL: o.memoryUrl ?? CLOSED_MEMORY_URL };
  const cfg = loadConfig({ cwd: dir, env });
  const workflow = bundledWorkflow();
  workflow.lineage_decision.mode = 'off';
  o.workflow?.(workflow);
  const logs: string[] = [];
  const settings: RunSettings = {
    maxNodes: 8,
    maxDepth: 5,
    parallel: 2,
    maxReact: 10,
    timeoutNodeS: 60,
    maxExpansionsPerNode: 4,
    expansionEnabled: true,
    frontierScore: 'scientific_plus_diversity',
    depthPenaltyLambda: 0.05,
    ucbC: 0.5,
    selectPrompt: BUNDLED_PROMPTS['orchestrator/bfts_select'] as string,
    expandSelectPrompt: BUNDLED_PROMPTS['orchestrator/bfts_expand_select'] as string,
    ...o.settings,
  };
  const ctx: RunContext = {
    cfg,
    workflow,
    settings,
    env,
    checkpointDir,
    runId,
    experimentsDir: experimentsDirOf(checkpointDir),
    goal,
    model: createModelClient({ cfg, checkpointDir: o.record ? checkpointDir : null, env }),
    pool: new SkillPool({ skills: [], env }),
    idea: () => {
      try {
        return JSON.parse(readFileSync(join(checkpointDir, 'idea.json'), 'utf8')) as IdeaFile;
      } catch {
        return null;
      }
    },
    log: (m) => void logs.push(m),
  };
  return { ctx, logs };
}

/** A successful outcome with a score. */
export function scored(score: number, extra: Partial<NodeOutcome> = {}): NodeOutcome {
  return { status: 'success', artifacts: [], metrics: { _scientific_score: score }, has_real_data: true, eval_summary: `score ${score}`, error_log: null, trace_log: [], node_report_path: null, ...extra };
}

/** Answers of an instant model: the first index for selections, an improve child for expansions, continue for lineage. */
export function instantAnswer(prompt: string | null): string {
  if (prompt === 'orchestrator/bfts_expand') return '[{"label": "improve", "direction": "Tune the block size of the sort"}]';
  if (prompt === 'orchestrator/lineage_decision') return '{"action": "continue", "target_idea_index": null, "disable_generate_ideas": false, "rationale": "keep going"}';
  return '0';
}
