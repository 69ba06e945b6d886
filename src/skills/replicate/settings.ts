import { type Config, resolveSetting } from '../../core/config/config.ts';
import { setting, type SettingValue } from '../../core/config/settings.ts';
import type { ModelClient, ModelRole } from '../../llm/client.ts';
import { roleModelClient, withRoleModel } from '../../llm/role-client.ts';
import type { ToolContext } from '../../mcp/tool.ts';
import { type PaperSource, readPaper } from '../../replicate/paper.ts';
import { checkpointPath } from '../checkpoint-path.ts';
import { skillConfig } from '../skill-config.ts';

/** A rubric setting (ors.*) from the saved settings or the environment; null when neither sets it. */
export function orsSetting(cfg: Config, key: string): SettingValue | null {
  const s = setting(key);
  if (!s) throw new Error(`no setting ${key}`);
  const r = resolveSetting(cfg, s);
  return r.origin === 'default' ? null : r.value;
}

/**
 * The model client for a role, with the tool's model argument standing in for the role's
 * variable (SVC_MODEL_RUBRIC_GEN, SVC_MODEL_RUBRIC_AUDIT): a caller that names a model gets it.
 */
export function roleClient(ctx: ToolContext, role: ModelRole, variable: string, model: string | undefined): { cfg: Config; client: ModelClient } {
  const cfg = skillConfig(withRoleModel(ctx.env, variable, model));
  return { cfg, client: roleModelClient(cfg, role, variable) };
}

/** The paper of a replicate tool: a file inside the checkpoint, or the text given. */
export function paperArg(args: { paper_path?: string; paper_text?: string }, ctx: ToolContext): Promise<PaperSource> {
  const path = args.paper_path?.trim() ? checkpointPath(args.paper_path, 'paper_path', ctx.env) : null;
  return readPaper(path, args.paper_text, ctx.env);
}
