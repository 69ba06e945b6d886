import type { Config } from '../core/config/config.ts';
import type { Env } from '../core/config/env-vars.ts';
import { embeddingHandle } from '../llm/embedding-handle.ts';

/**
 * Letta's free hosted embedding handle: older svc clients and Letta's own send it when no model is
 * configured. svc cannot call it, so it means no model here.
 */
const LETTA_FREE = 'letta/letta-free';

/** The handle of an embedding setting (MEMBACKEND_EMBEDDING_CONFIG, an agent's `embedding`), Letta's free one read as none. */
export function modelHandle(value: string | null | undefined): string | null {
  return value?.trim() === LETTA_FREE ? null : embeddingHandle(value);
}

/** The workflow's memory embedding model (memory.membackend.embedding_config) where the environment names none: the run's memory agent is created with it. */
export function withWorkflowMemory(env: Env, cfg: Config): Env {
  // the variable itself, not its table default ('default'), which would hide the workflow's
  if (env.MEMBACKEND_EMBEDDING_CONFIG) return env;
  return { ...env, MEMBACKEND_EMBEDDING_CONFIG: cfg.workflow.workflow.memory.membackend.embedding_config };
}
