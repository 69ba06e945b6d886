import { delimiter } from 'node:path';
import { withoutWorkDir, type NodeTools } from '../agent/tools.ts';
import { oneLine } from '../core/errors.ts';
import { checkArguments } from '../mcp/arguments.ts';
import type { ToolInfo } from '../mcp/pool.ts';
import type { ToolContext, ToolDef } from '../mcp/tool.ts';
import type { NodeExec } from '../sandbox/node-command.ts';
import { readFile } from '../coding/read-file.ts';
import { runBash } from '../coding/run-bash.ts';
import { runCode } from '../coding/run-code.ts';
import { writeCode } from '../coding/write-code.ts';

/** What the replicator works with: the coding tools that build and try a repository (no results to emit). */
const TOOLS: ToolDef<any>[] = [readFile, writeCode, runCode, runBash];

/**
 * The coding tools called in this process, as a node's tools are through the pool: the same
 * argument check, every call in workDir whatever the model gave, and stopped by the signal.
 * Running them here spares a skill server per build; commands run on this machine with binDir
 * (the patch commands) first on PATH, or in the container exec names; granted variables reach
 * the commands as they are (an agent's env file, HF_TOKEN, the forbidden URLs).
 */
export function localCodingTools(env: ToolContext['env'], workDir: string, signal: AbortSignal, binDir: string, exec?: NodeExec, grantedEnv: Readonly<Record<string, string>> = {}): NodeTools {
  const byName = new Map(TOOLS.map((t) => [t.name, t]));
  const infos: ToolInfo[] = TOOLS.map((t) => ({ skill: 'coding-skill', name: t.name, description: t.description, inputSchema: JSON.parse(JSON.stringify(t.params)) as Record<string, unknown>, ...(t.timeoutS ? { timeoutS: t.timeoutS } : {}) }));
  const toolEnv = { ...env, SVC_WORK_DIR: workDir, PATH: env.PATH ? `${binDir}${delimiter}${env.PATH}` : binDir };
  return {
    infos,
    specs: infos.map((t) => ({ name: t.name, description: t.description, parameters: withoutWorkDir(t.inputSchema) })),
    has: (name) => byName.has(name),
    async call(name, args) {
      const tool = byName.get(name);
      if (!tool) return { error: `unknown tool '${name}'` };
      try {
        const checked = checkArguments(tool.params, name, { ...args, work_dir: workDir });
        return { result: await tool.run(checked, { signal, env: toolEnv, grantedEnv, ...(exec ? { exec } : {}) }) };
      } catch (err) {
        return { error: oneLine(err) };
      }
    },
  };
}
