import { type Config, loadConfig } from '../core/config/config.ts';
import { envValue } from '../core/config/env-vars.ts';
import type { ToolContext } from '../mcp/tool.ts';

/**
 * The configuration a skill process runs under: its environment, and the run's checkpoint copy of
 * the workflow when SVC_CHECKPOINT_DIR names one, so the skill sees what the run sees.
 */
export function skillConfig(env: ToolContext['env']): Config {
  const checkpointDir = envValue(env, 'SVC_CHECKPOINT_DIR') ?? undefined;
  return loadConfig({ env, checkpointDir });
}
