import type { Config } from '../../core/config/config.ts';
import { oneLine } from '../../core/errors.ts';
import { createModelClient, type ModelClient } from '../../llm/client.ts';
import type { ToolContext } from '../../mcp/tool.ts';
import { skillConfig } from '../skill-config.ts';

/**
 * The model the transform tools name and describe things with: the paper role's, routed as every
 * call is. `llm_model` and `llm_base_url` (the stage passes the workflow's llm block) stand in for
 * the workflow's llm.model and llm.base_url; the environment still wins over them, as over the
 * workflow. No model configured: why, as a string, and the tools fall back to deterministic text.
 */
export function transformModel(ctx: ToolContext, llm: { model?: string; baseUrl?: string }): ModelClient | string {
  try {
    const cfg = withLlm(skillConfig(ctx.env), llm);
    const model = createModelClient({ cfg });
    model.choice('paper');
    return model;
  } catch (err) {
    return oneLine(err);
  }
}

function withLlm(cfg: Config, llm: { model?: string; baseUrl?: string }): Config {
  const wf = cfg.workflow.workflow;
  const model = llm.model?.trim() || wf.llm.model;
  const base_url = llm.baseUrl?.trim() || wf.llm.base_url;
  return { ...cfg, workflow: { ...cfg.workflow, workflow: { ...wf, llm: { ...wf.llm, model, base_url } } } };
}
