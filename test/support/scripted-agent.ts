import { parseProgramOutput, PROGRAM_FILE, programFor, type Variant, variantOf } from './demo-program.ts';
import type { ReplyStep } from './model-server.ts';
import { bareToolName, messagesOf, type OpenAIChatRequest, offeredTool, offersTools, textOf } from './scripted-request.ts';

/** A tool call of the conversation so far, with the text of its result (null when none came back). */
export type Call = { name: string; args: Record<string, unknown>; result: string | null };

/** What a tool's result says: whether it worked, what a program printed, what went wrong. */
type Outcome = { ok: boolean; stdout: string; error: string };

/**
 * One step of a node's agent: write the program the node's direction asks for, run it, record
 * what it printed with emit_results, then answer the final JSON. Decided from the calls the
 * conversation already holds, so the same conversation always gets the same step. A failed step is
 * tried once more, then the node ends saying what failed.
 */
export function agentStep(body: OpenAIChatRequest): ReplyStep {
  const calls = history(body);
  const variant = variantOf(directionOf(body));
  const step = messagesOf(body).filter((m) => m.role === 'assistant').length + 1;
  const call = (bare: string, args: Record<string, unknown>): ReplyStep =>
    offersTools(body) ? { toolCalls: [{ id: `call_${step}_${bare}`, name: offeredTool(body, bare), args }] } : finish(calls, variant, 'the tools were taken away before the work was done');
  const of = (name: string) => calls.filter((c) => bareToolName(c.name) === name);
  const writes = of('write_code');
  const lastWrite = writes.at(-1);
  if (!lastWrite) return call('write_code', { filename: PROGRAM_FILE, code: programFor(variant) });
  if (!outcome(lastWrite).ok) {
    return writes.length < 2 ? call('write_code', { filename: PROGRAM_FILE, code: programFor(variant) }) : finish(calls, variant, `write_code failed: ${outcome(lastWrite).error}`);
  }
  const after = calls.slice(calls.lastIndexOf(lastWrite) + 1);
  const lastRun = after.filter((c) => bareToolName(c.name) === 'run_code').at(-1);
  const filename = typeof lastWrite.args.filename === 'string' ? lastWrite.args.filename : PROGRAM_FILE;
  if (!lastRun) return call('run_code', { filename });
  const run = outcome(lastRun);
  const parsed = run.ok ? parseProgramOutput(run.stdout) : null;
  if (!parsed) {
    const why = run.ok ? 'the program printed no JSON line of measurements' : `run_code failed: ${run.error}`;
    return writes.length < 2 ? call('write_code', { filename: PROGRAM_FILE, code: programFor(variant) }) : finish(calls, variant, why);
  }
  const emits = after.slice(after.lastIndexOf(lastRun) + 1).filter((c) => bareToolName(c.name) === 'emit_results');
  const lastEmit = emits.at(-1);
  if (!lastEmit) return call('emit_results', { params: parsed.params, measurements: parsed.measurements });
  if (!outcome(lastEmit).ok) {
    // the second try leaves the settings out, in case they were what the tool refused
    return of('emit_results').length < 2 ? call('emit_results', { measurements: parsed.measurements }) : finish(calls, variant, `emit_results failed: ${outcome(lastEmit).error}`);
  }
  return finish(calls, variant, null, parsed.measurements);
}

/** The final answer of a node: success with what was measured, or failed with why. */
function finish(calls: Call[], v: Variant, failure: string | null, measured?: Record<string, number>): ReplyStep {
  const what = v.algorithm === 'shell' ? `Shell sort with gaps growing by a ratio of ${v.gapRatio}` : 'Insertion sort (the baseline)';
  if (failure !== null || !measured) {
    const why = failure ?? `no measurement after ${calls.length} tool calls`;
    return { text: JSON.stringify({ status: 'failed', summary: `${what} on ${v.n} integers (seed ${v.seed}) was not measured: ${why}`, artifacts: [] }) };
  }
  const summary = `${what} made ${measured.comparisons} comparisons and ${measured.moves} moves sorting ${v.n} pseudo-random integers (seed ${v.seed}) in ${measured.passes} passes; the array ended sorted: ${measured.sorted === 1 ? 'yes' : 'no'}.`;
  return { text: JSON.stringify({ status: 'success', summary, artifacts: [PROGRAM_FILE, 'results.json'] }) };
}

/** The tool calls of the conversation in order, each with the result that answered it. */
export function history(body: OpenAIChatRequest): Call[] {
  const calls: (Call & { id: string })[] = [];
  for (const m of messagesOf(body)) {
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      for (const c of m.tool_calls) calls.push({ id: c.id, name: c.function?.name ?? '', args: parseArgs(c.function?.arguments), result: null });
    } else if (m.role === 'tool') {
      const target = calls.findLast((c) => c.id === m.tool_call_id && c.result === null) ?? calls.findLast((c) => c.result === null);
      if (target) target.result = textOf(m.content);
    }
  }
  return calls;
}

function parseArgs(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string') return raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A tool result read tolerantly: JSON `{result}`, `{error}` or the result itself, or plain text. */
export function outcome(call: Call): Outcome {
  if (call.result === null) return { ok: false, stdout: '', error: 'no result came back' };
  let v: unknown;
  try {
    v = JSON.parse(call.result);
  } catch {
    const failed = /^\s*(error|tool error|failed)\b/i.test(call.result);
    return { ok: !failed, stdout: call.result, error: failed ? call.result.trim().slice(0, 300) : '' };
  }
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (typeof o.error === 'string' && !('stdout' in o)) return { ok: false, stdout: '', error: o.error };
    if (o.isError === true) return { ok: false, stdout: '', error: JSON.stringify(o.content ?? o).slice(0, 300) };
    const r = (o.result && typeof o.result === 'object' ? o.result : o) as Record<string, unknown>;
    const stdout = typeof r.stdout === 'string' ? r.stdout : call.result;
    const exitFailed = (typeof r.exit_code === 'number' && r.exit_code !== 0) || r.timed_out === true;
    return { ok: !exitFailed, stdout, error: exitFailed ? `exit ${String(r.exit_code)}: ${String(r.stderr ?? '').slice(-300)}` : '' };
  }
  return { ok: true, stdout: call.result, error: '' };
}

/**
 * The node's direction: a user line naming the direction with a setting in it, else all the user
 * text (a root node has no direction and gets the baseline).
 */
function directionOf(body: OpenAIChatRequest): string {
  const user = messagesOf(body)
    .filter((m) => m.role === 'user')
    .map((m) => textOf(m.content))
    .join('\n');
  const line = user.split('\n').find((l) => /direction/i.test(l) && /gap_ratio\s*=|\bseed\s*=/i.test(l));
  return line ?? user;
}
