/** One step of a node's ReAct trace: a tool call with its answer, or a note of the loop. */
export type TraceStep = { kind: 'call'; tool: string; args: string; result: string | null; failed: boolean } | { kind: 'note'; text: string };

/**
 * The steps of a trace_log as the agent writes it: `→ tool(args)` for a call, `  ← result` or
 * `  ← error: …` for its answer, `· …` for what the loop noted and `  ↺ …` for a nudge it sent.
 */
export function parseTrace(lines: string[]): TraceStep[] {
  const steps: TraceStep[] = [];
  let open: Extract<TraceStep, { kind: 'call' }> | null = null;
  for (const line of lines) {
    const call = /^→ ([\w.-]+)\(([\s\S]*)\)$/.exec(line) ?? /^→ ([\w.-]+)\(([\s\S]*)$/.exec(line);
    if (call) {
      open = { kind: 'call', tool: call[1]!, args: call[2]!, result: null, failed: false };
      steps.push(open);
      continue;
    }
    const answer = /^\s*← ([\s\S]*)$/.exec(line);
    if (answer && open && open.result === null) {
      open.failed = answer[1]!.startsWith('error:');
      open.result = answer[1]!;
      continue;
    }
    steps.push({ kind: 'note', text: line.replace(/^\s*[·↺]\s?/, '') });
  }
  return steps;
}
