import type { Config } from '../core/config/config.ts';
import type { Env } from '../core/config/env-vars.ts';
import { InputError } from '../core/errors.ts';
import { createModelClient, type ModelClient, type ModelRole } from './client.ts';

/** The environment with a caller's model standing in for the role's variable (SVC_MODEL_JUDGE, ...): a caller that names a model gets it. */
export function withRoleModel(env: Env, variable: string, model: string | undefined): Env {
  return model?.trim() ? { ...env, [variable]: model.trim() } : env;
}

/**
 * The model client for a role, refused at once when no model serves it. `checkpointDir` is where
 * the cost ledger goes (SVC_CHECKPOINT_DIR when undefined, as in a skill process; null: none).
 */
export function roleModelClient(cfg: Config, role: ModelRole, variable: string, checkpointDir?: string | null): ModelClient {
  const client = createModelClient(checkpointDir === undefined ? { cfg } : { cfg, checkpointDir });
  const why = client.unavailable(role);
  if (why) throw new InputError(`no model for the ${role} role: ${why}`, `set ${variable}, SVC_MODEL or the workflow llm block, or give the model argument`);
  return client;
}
