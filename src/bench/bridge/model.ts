import { loadConfig } from '../../core/config/config.ts';
import type { Env } from '../../core/config/env-vars.ts';
import type { ModelClient, ModelRole } from '../../llm/client.ts';
import { roleModelClient, withRoleModel } from '../../llm/role-client.ts';

/**
 * The model client of one bridge stage: the role's variable (SVC_MODEL_RUBRIC_GEN,
 * SVC_MODEL_REPLICATE, SVC_MODEL_JUDGE) unless the caller names a model, its calls recorded in the
 * cost ledger of `ledgerDir` (a job's run directory; null: none).
 */
export function stageClient(env: Env, role: ModelRole, variable: string, model: string | undefined, ledgerDir: string | null): ModelClient {
  return roleModelClient(loadConfig({ env: withRoleModel(env, variable, model) }), role, variable, ledgerDir);
}
