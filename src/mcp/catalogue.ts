import type { SkillEntry } from '../core/config/skills.ts';
import { oneLine } from '../core/errors.ts';
import { builtinSkill } from '../schema/tool-manifest.ts';
import { type Env, SkillConnection } from './connection.ts';

export type ToolSummary = { name: string; description: string; disabled: boolean; input_schema: Record<string, unknown> };

export type SkillInfo = SkillEntry & {
  description: string;
  uses_model: boolean | null;
  env: string[];
  /** null when the tools could not be listed (a built-in skill this version lacks, an external server that would not start) */
  tool_count: number | null;
  tools: ToolSummary[];
  problem: string | null;
};

const LIST_TIMEOUT_MS = 15_000;

/**
 * What each skill of the workflow offers. Built-in skills are described by the tool manifest,
 * without loading their code; an external server is started once, asked for its tools and
 * stopped, when `startExternal` allows it. The dashboard does not: any web page may call it, and
 * a workflow it can edit names the program to start.
 */
export async function describeSkills(entries: SkillEntry[], disabled: string[], env: Env, opts: { startExternal: boolean }): Promise<SkillInfo[]> {
  const off = new Set(disabled);
  const isOff = (skill: string, tool: string) => off.has(tool) || off.has(`${skill}:${tool}`);
  return Promise.all(
    entries.map(async (entry): Promise<SkillInfo> => {
      const summarise = (tools: Omit<ToolSummary, 'disabled'>[]) => tools.map((t) => ({ ...t, disabled: isOff(entry.name, t.name) }));
      if (entry.builtin) {
        const def = builtinSkill(entry.name);
        if (!def) return { ...entry, description: '', uses_model: null, env: [], tool_count: null, tools: [], problem: 'built in, not in this version yet' };
        const tools = summarise(def.tools.map(renamed));
        return { ...entry, description: def.description, uses_model: def.usesModel, env: def.env, tool_count: tools.length, tools, problem: null };
      }
      if (!opts.startExternal) {
        return { ...entry, description: '', uses_model: null, env: [], tool_count: null, tools: [], problem: 'external server: svc skills-list starts it to list its tools' };
      }
      try {
        const tools = summarise(await listExternal(entry, env));
        return { ...entry, description: '', uses_model: null, env: [], tool_count: tools.length, tools, problem: null };
      } catch (err) {
        return { ...entry, description: '', uses_model: null, env: [], tool_count: null, tools: [], problem: oneLine(err) };
      }
    }),
  );
}

async function listExternal(entry: SkillEntry, env: Env): Promise<Omit<ToolSummary, 'disabled'>[]> {
  const conn = await SkillConnection.open(entry, env);
  try {
    const { tools } = await conn.client.listTools(undefined, { timeout: LIST_TIMEOUT_MS });
    return tools.map((t) => renamed({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema as Record<string, unknown> }));
  } finally {
    await conn.close();
  }
}

function renamed(t: { name: string; description: string; inputSchema: Record<string, unknown> }): Omit<ToolSummary, 'disabled'> {
  return { name: t.name, description: t.description, input_schema: t.inputSchema };
}
