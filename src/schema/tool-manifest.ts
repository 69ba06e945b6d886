import manifest from './tool-manifest.json' with { type: 'json' };

/** A tool of a built-in skill as MCP clients see it, with how long a client waits for it. */
export type ManifestTool = { name: string; description: string; inputSchema: Record<string, unknown>; timeoutS?: number };

/** What a built-in skill offers, known without loading its code. */
export type ManifestSkill = { description: string; usesModel: boolean; env: string[]; tools: ManifestTool[] };

/** The manifest as `bun run schemas` writes it: the built-in skills by name, in catalogue order. */
export type ToolManifest = { $comment: string; skills: Record<string, ManifestSkill> };

export const TOOL_MANIFEST_FILE = 'src/schema/tool-manifest.json';

const SKILLS = (manifest as ToolManifest).skills;

/** Names of the skills compiled into this binary. */
export const BUILTIN_SKILLS: ReadonlySet<string> = new Set(Object.keys(SKILLS));

/**
 * A built-in skill's description and tools, or undefined when this binary lacks it. Each call gets
 * its own copy: the run hands the schemas on to model providers.
 */
export function builtinSkill(name: string): ManifestSkill | undefined {
  return Object.hasOwn(SKILLS, name) ? structuredClone(SKILLS[name]) : undefined;
}
