/**
 * Letta's free hosted embedding handle: older svc clients and Letta's own send it when no model is
 * configured. svc cannot call it, so it means no model here.
 */
const LETTA_FREE = 'letta/letta-free';

/**
 * The handle of a setting naming an embedding model (MEMBACKEND_EMBEDDING_CONFIG, an agent's
 * `embedding`), or null for none: empty, 'default', 'none' (as the model layer's embeddingHandle)
 * and Letta's free handle. Kept apart from the model layer so the memory client, loaded by every
 * skill process, does not load it.
 */
export function modelHandle(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  return v === '' || v === 'default' || v === 'none' || v === LETTA_FREE ? null : v;
}
