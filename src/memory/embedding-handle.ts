import { type Config, effective } from '../core/config/config.ts';
import { type Env, envValue } from '../core/config/env-vars.ts';
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

/**
 * The environment with the memory embedding model the run's agent is created with, as the one
 * resolver finds it (settings.json, the environment, the workflow's
 * memory.membackend.embedding_config, then default: none). A replay asks what its cassette
 * recorded, which withRecordedEnv has put in the environment where the caller set nothing: no
 * saved setting changes it.
 */
export function withMemoryEmbedding(env: Env, cfg: Config): Env {
  if (envValue(env, 'SVC_BACKEND') === 'replay' && env.MEMBACKEND_EMBEDDING_CONFIG) return env;
  return { ...env, MEMBACKEND_EMBEDDING_CONFIG: String(effective({ ...cfg, env }, 'memory_embedding').value) };
}
