import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_ENV_FILE } from './files-diff.ts';
import type { MachineInfo } from './machine.ts';
import { commandOf } from './step-call.ts';
import { EXEC_TOOLS } from './tools.ts';

/** What a node's trace_log still tells: how often each tool was called, and the commands its exec tools ran. */
export function fromTrace(trace: unknown): { toolCounts: Record<string, number>; commands: string[] } | null {
  if (!Array.isArray(trace)) return null;
  const toolCounts: Record<string, number> = {};
  const commands: string[] = [];
  trace.forEach((line, i) => {
    // "→ tool(args)" then "  ← result" or "  ← error: ..."
    const m = typeof line === 'string' ? /^→ ([\w.-]+)\(/.exec(line) : null;
    if (!m) return;
    const name = m[1] as string;
    const argsText = (line as string).slice(m[0].length).replace(/\)$/, '');
    toolCounts[name] = (toolCounts[name] ?? 0) + 1;
    const next = trace[i + 1];
    if (!EXEC_TOOLS.has(name) || typeof next !== 'string' || !next.startsWith('  ← ') || next.startsWith('  ← error:')) return;
    let args: unknown;
    try {
      args = JSON.parse(argsText);
    } catch {
      return; // arguments cut short in the trace: the command is lost
    }
    const command = args !== null && typeof args === 'object' && !Array.isArray(args) ? commandOf(name, args as Record<string, unknown>) : null;
    if (command !== null) commands.push(command);
  });
  return { toolCounts, commands };
}

/** The node's _run_env.json (start time, executor, machine), as the run wrote it; null parts when it is missing or damaged. */
export function fromRunEnv(workDir: string): { startedAt: string | null; executor: string | null; machine: MachineInfo | null } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(workDir, RUN_ENV_FILE), 'utf8'));
  } catch {
    return { startedAt: null, executor: null, machine: null };
  }
  const r = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  const machine =
    str(r.hostname) === null
      ? null
      : {
          hostname: r.hostname as string,
          cpu_info: (r.cpu_info ?? null) as MachineInfo['cpu_info'],
          mem_total_kb: typeof r.mem_total_kb === 'number' ? r.mem_total_kb : null,
          compilers: (r.compilers ?? null) as MachineInfo['compilers'],
        };
  return { startedAt: str(r.started_at), executor: str(r.executor), machine };
}
