import { dirname } from 'node:path';
import { type Config, effective } from '../core/config/config.ts';
import { promptTemplate } from '../prompts/templates.ts';
import type { RunSettings } from '../search/contract.ts';

const int = (cfg: Config, key: string): number => effective(cfg, key).value as number;

/**
 * The settings of one run: each from the environment, the profile, settings.json or the workflow,
 * as `svc settings` shows them. Prompt templates are read here, so a missing one stops the run
 * before it creates anything.
 */
export function resolveRunSettings(cfg: Config): RunSettings {
  const wf = cfg.workflow.workflow;
  const baseDir = cfg.workflow.source === 'bundled' ? cfg.projectRoot : dirname(cfg.workflow.path);
  const expand = wf.bfts_pipeline.find((s) => s.stage === 'frontier_expand');
  return {
    maxNodes: int(cfg, 'max_nodes'),
    maxDepth: int(cfg, 'max_depth'),
    parallel: int(cfg, 'parallel'),
    maxReact: int(cfg, 'max_react'),
    timeoutNodeS: int(cfg, 'timeout_node'),
    maxExpansionsPerNode: wf.bfts.max_expansions_per_node,
    expansionEnabled: expand?.enabled !== false,
    frontierScore: effective(cfg, 'frontier_score').value as RunSettings['frontierScore'],
    depthPenaltyLambda: wf.bfts.depth_penalty_lambda,
    ucbC: wf.bfts.ucb_c,
    selectPrompt: promptTemplate(wf.bfts.select_prompt, { baseDir, placeholders: ['experiment_goal', 'memory_context', 'candidates'], setting: 'bfts.select_prompt' }),
    expandSelectPrompt: promptTemplate(wf.bfts.expand_select_prompt, { baseDir, placeholders: ['experiment_goal', 'candidates'], setting: 'bfts.expand_select_prompt' }),
  };
}
