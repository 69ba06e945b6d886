import type { ToolSpec } from '../llm/types.ts';
import type { SkillPool, ToolInfo, ToolOutcome } from '../mcp/pool.ts';
import type { NodeExec } from '../sandbox/node-command.ts';

/** Tools that run once before the search, never inside a node. */
const BEFORE_SEARCH = new Set(['generate_ideas', 'survey']);

/** Tools that execute the node's code: a node may finish only after one of them ran. */
export const EXEC_TOOLS: ReadonlySet<string> = new Set(['run_code', 'run_bash', 'slurm_submit', 'job_status', 'singularity_run', 'singularity_run_gpu']);

export type NodeTools = {
  infos: ToolInfo[];
  /** what the model is offered: the tools without their work_dir argument, which the node fixes */
  specs: ToolSpec[];
  has(name: string): boolean;
  /** calls a tool for the node; the work directory is the node's whatever the model gave */
  call(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
};

export async function nodeTools(pool: SkillPool, workDir: string, nodeId: string, signal: AbortSignal, exec?: NodeExec): Promise<NodeTools> {
  const infos = (await pool.tools('bfts')).filter((t) => !BEFORE_SEARCH.has(t.name));
  const byName = new Map(infos.map((t) => [t.name, t]));
  return {
    infos,
    specs: infos.map((t) => ({ name: t.name, description: t.description, parameters: withoutWorkDir(t.inputSchema) })),
    has: (name) => byName.has(name),
    call(name, args) {
      const tool = byName.get(name);
      // a node never works outside its directory
      const fixed = tool && takesWorkDir(tool) ? { ...args, work_dir: workDir } : args;
      return pool.call(name, fixed, { signal, nodeId, ...(exec ? { exec } : {}), ...(tool ? { skill: tool.skill } : {}) });
    },
  };
}

function takesWorkDir(t: ToolInfo): boolean {
  const props = t.inputSchema.properties;
  return props !== null && typeof props === 'object' && Object.hasOwn(props, 'work_dir');
}

/** A tool schema without its work_dir argument, which the caller fixes. */
export function withoutWorkDir(schema: Record<string, unknown>): Record<string, unknown> {
  const props = schema.properties;
  if (props === null || typeof props !== 'object' || !Object.hasOwn(props, 'work_dir')) return schema;
  const { work_dir: _, ...rest } = props as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => r !== 'work_dir') : undefined;
  return { ...schema, properties: rest, ...(required ? { required } : {}) };
}

/** Whether an exec tool's result carries program output (stdout or stderr that is not empty). */
export function hasOutput(result: unknown): boolean {
  if (result === null || typeof result !== 'object') return typeof result === 'string' && result.trim() !== '';
  const r = result as Record<string, unknown>;
  return [r.stdout, r.stderr, r.output].some((v) => typeof v === 'string' && v.trim() !== '');
}

/** One line per tool for the system prompt. */
export function toolDescriptions(infos: ToolInfo[]): string {
  return infos.map((t) => `- ${t.name}: ${t.description.split('\n')[0]}`).join('\n');
}
