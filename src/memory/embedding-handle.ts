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
