import { readFileSync } from 'node:fs';
import type { TSchema } from '@sinclair/typebox';
import { checkArguments } from '../../../../src/mcp/arguments.ts';
import type { ToolDef } from '../../../../src/mcp/tool.ts';

export type Env = Record<string, string | undefined>;

/**
 * Calls a tool as the skill server does, through the same argument check, so a test cannot hand
 * `run` something a real call could not.
 */
export async function callTool<P extends TSchema>(tool: ToolDef<P>, args: Record<string, unknown>, env: Env, signal?: AbortSignal): Promise<any> {
  return await tool.run(checkArguments(tool.params, tool.name, args), { signal: signal ?? new AbortController().signal, env });
}

/** True while the process exists and is not a zombie waiting to be reaped. */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits until the file exists and has content (a pid a background shell writes). */
export async function waitForFile(path: string): Promise<string> {
  for (;;) {
    try {
      const text = readFileSync(path, 'utf8').trim();
      if (text !== '') return text;
    } catch {
      // not there yet
    }
    await Bun.sleep(10);
  }
}
