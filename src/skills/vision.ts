import { loadConfig } from '../core/config/config.ts';
import { envValue } from '../core/config/env-vars.ts';
import { createModelClient, type ModelClient } from '../llm/client.ts';
import type { ImagePart } from '../llm/types.ts';
import type { ToolContext } from '../mcp/tool.ts';

/** The vision model a skill may call, or why there is none. */
export type Vision = { client: ModelClient; model: string } | { none: string };

/**
 * The vision model (VLM_MODEL) for a skill process: the run's configuration and cost ledger
 * (SVC_CHECKPOINT_DIR), or, known before any request, why none can be called: no model is set for
 * the role and the built-in hosted one has no key, say. Figures do without one.
 */
export function visionModel(env: ToolContext['env']): Vision {
  const checkpointDir = envValue(env, 'SVC_CHECKPOINT_DIR') ?? undefined;
  const client = createModelClient({ cfg: loadConfig({ env, checkpointDir }), checkpointDir: checkpointDir ?? null });
  const why = client.unavailable('vlm');
  if (why) return { none: `no vision model is configured (${why}); set VLM_MODEL to a vision model the backend serves` };
  return { client, model: client.choice('vlm').model };
}

export const pngPart = (data: Uint8Array): ImagePart => ({ type: 'image', mediaType: 'image/png', data });
