import { listing } from '../mcp/serve.ts';
import { TOOL_MANIFEST_FILE, type ManifestSkill, type ToolManifest } from '../schema/tool-manifest.ts';
import { BUILTIN_SKILLS, loadSkill } from './catalog.ts';

/**
 * The tool manifest as generated from the skill definitions. The run and the configuration read
 * the checked-in copy, so that listing tools never loads skill code; `bun run schemas` rewrites
 * it and `--check` fails when a definition changed without it.
 */
export async function toolManifestFile(): Promise<{ path: string; text: string }> {
  const skills: Record<string, ManifestSkill> = {};
  for (const name of BUILTIN_SKILLS) {
    const def = await loadSkill(name);
    if (!def) continue;
    skills[name] = {
      description: def.description,
      usesModel: def.usesModel,
      env: def.env,
      tools: def.tools.map((t) => ({ ...listing(t), ...(t.timeoutS ? { timeoutS: t.timeoutS } : {}) })),
    };
  }
  const manifest: ToolManifest = { $comment: 'generated from src/skills by `bun run schemas`; do not edit', skills };
  return { path: TOOL_MANIFEST_FILE, text: `${JSON.stringify(manifest, null, 2)}\n` };
}
