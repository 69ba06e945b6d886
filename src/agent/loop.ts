import { oneLine } from '../core/errors.ts';
import type { ModelClient, ModelRole } from '../llm/client.ts';
import type { CallMeta, ChatMessage, Completion } from '../llm/types.ts';
import type { NodeTask } from '../search/contract.ts';
import { contextWindow } from './context.ts';
import { parseFinish } from './finish.ts';
import { nodeTaskPrompt, systemPrompt } from './prompts.ts';
import { runToolCall } from './step-call.ts';
import { type NodeTools, toolDescriptions } from './tools.ts';
import { headTail } from './truncate.ts';

/** Artifacts kept on the node: the newest code per file and the newest few run outputs. */
const MAX_RESULT_ARTIFACTS = 5;

export type LoopResult = {
  status: 'success' | 'failed';
  /** the model's summary of what it did ('' when it gave none) */
  summary: string;
  /** the files the model named as its artifacts */
  declared: unknown[];
  /** code written and output produced, as node artifacts */
  artifacts: Record<string, unknown>[];
  error: string | null;
  trace: string[];
  /** true when the node was stopped by its signal */
  stopped: boolean;
  /** the commands exec tools ran, in order */
  commands: string[];
  toolCounts: Record<string, number>;
  /** model answers asked for */
  steps: number;
  /** the step budget ran out before the model finished */
  stepLimit: boolean;
};

const NUDGE_EARLY = 'Refused: you have not run any code yet, so there is nothing to report. Run your code (run_code or run_bash) first, then finish with the JSON object.';
const NUDGE_FAILED = 'Refused: "status": "failed" is not accepted. Find out what went wrong from the output, fix it and run again.';
const NUDGE_FORMAT = 'Call a tool, or finish with only the JSON object {"status": "success", "summary": "...", "artifacts": [...]}.';

/**
 * What a ReAct loop needs besides its tools: the model and role that answer, the opening
 * messages, the step budget and the signal that stops it. A node's loop and the replicator's are
 * the same loop with different specs.
 */
export type ReactSpec = {
  model: Pick<ModelClient, 'complete'>;
  role: ModelRole;
  system: string;
  user: string;
  maxSteps: number;
  /** names the step budget in the trace, e.g. SVC_MAX_REACT=80 */
  maxStepsName: string;
  meta: CallMeta;
  signal: AbortSignal;
  /** why the loop was stopped, read once its signal fired */
  stopReason: () => string;
};

/**
 * The ReAct loop of one node: the model calls tools (each call made for the node, in its work
 * directory) until it finishes with its JSON, the step budget is spent, or the node's signal stops
 * it. It is given no tool choice only once an exec tool has run, which is when it may finish.
 */
export function reactLoop(task: NodeTask, tools: NodeTools): Promise<LoopResult> {
  const { ctx, node, signal } = task;
  return runReact(
    {
      model: ctx.model,
      role: 'bfts',
      system: systemPrompt(task, toolDescriptions(tools.infos)),
      user: nodeTaskPrompt(task),
      maxSteps: ctx.settings.maxReact,
      maxStepsName: `SVC_MAX_REACT=${ctx.settings.maxReact}`,
      meta: { phase: 'bfts', node_id: node.id, component: 'agent', op: 'react_step' },
      signal,
      stopReason: () => stopReason(task),
    },
    tools,
  );
}

/** The loop itself, for any agent that works through tools until it finishes with its JSON. */
export async function runReact(spec: ReactSpec, tools: NodeTools): Promise<LoopResult> {
  const { signal, maxSteps } = spec;
  const history: ChatMessage[] = [
    { role: 'system', content: spec.system },
    { role: 'user', content: spec.user },
  ];
  const r: LoopResult = { status: 'failed', summary: '', declared: [], artifacts: [], error: null, trace: [], stopped: false, commands: [], toolCounts: {}, steps: 0, stepLimit: false };
  const code = new Map<unknown, Record<string, unknown>>();
  const results: Record<string, unknown>[] = [];
  let execRan = false;
  let execOutput = false;
  let earlyFinishes = 0;
  let lastText = '';
  const end = (status: 'success' | 'failed', error: string | null): LoopResult => {
    r.artifacts = [...code.values(), ...results.slice(-MAX_RESULT_ARTIFACTS)];
    // the trace ends saying why the node failed
    if (error !== null && r.trace.at(-1) !== `· ${error}`) r.trace.push(`· ${error}`);
    return Object.assign(r, { status, error });
  };

  for (let step = 1; step <= maxSteps; step++) {
    if (signal.aborted) return stop(r, spec, end);
    r.steps = step;
    let answer: Completion;
    try {
      answer = await spec.model.complete({
        role: spec.role,
        messages: contextWindow(history),
        tools: tools.specs,
        toolChoice: execRan ? 'auto' : 'required',
        meta: spec.meta,
        signal,
      });
    } catch (err) {
      if (signal.aborted) return stop(r, spec, end);
      if (!isToolChoiceViolation(err)) return end('failed', `model call failed at step ${step}: ${oneLine(err)}`);
      // the model tried to stop calling tools before any code ran: an early finish
      if (++earlyFinishes > 1) return end('failed', 'the model finished twice without running any code');
      r.trace.push('· answered without a tool call before running code', `  ↺ ${NUDGE_EARLY}`);
      history.push({ role: 'user', content: NUDGE_EARLY });
      continue;
    }
    if (answer.text.trim() !== '') lastText = answer.text;

    if (answer.toolCalls.length === 0) {
      history.push({ role: 'assistant', content: answer.text });
      r.trace.push(`· ${headTail(answer.text, 500)}`);
      const fin = parseFinish(answer.text);
      if (fin.kind === 'success' && execRan) {
        r.summary = fin.summary;
        r.declared = fin.artifacts;
        return end('success', null);
      }
      let nudge = NUDGE_FORMAT;
      if (fin.kind === 'success') {
        if (++earlyFinishes > 1) return end('failed', 'the model finished twice without running any code');
        nudge = NUDGE_EARLY;
      } else if (fin.kind === 'failed') nudge = NUDGE_FAILED;
      r.trace.push(`  ↺ ${nudge}`);
      history.push({ role: 'user', content: nudge });
      continue;
    }

    history.push({ role: 'assistant', content: answer.text, toolCalls: answer.toolCalls });
    for (const call of answer.toolCalls) {
      const done = await runToolCall(call, tools, step);
      r.trace.push(...done.trace);
      r.toolCounts[call.name] = (r.toolCounts[call.name] ?? 0) + 1;
      history.push({ role: 'tool', toolCallId: call.id, name: call.name, content: done.content });
      execRan ||= done.execRan;
      execOutput ||= done.execOutput;
      if (done.command !== null) r.commands.push(done.command);
      if (done.artifact?.type === 'code') code.set(done.artifact.filename, done.artifact);
      else if (done.artifact) results.push(done.artifact);
      if (signal.aborted) return stop(r, spec, end);
    }
  }

  const limit = `ReAct step limit (${spec.maxStepsName}) reached`;
  r.trace.push(`· ${limit}`);
  r.stepLimit = true;
  if (!execOutput) return end('failed', limit);
  // the work ran and printed: it is judged on what it produced
  r.summary = lastText.trim() !== '' ? headTail(lastText, 2000) : `${limit} after running code`;
  return end('success', null);
}

/** The SDK refuses an answer without a tool call when one was required (models that ignore the setting). */
function isToolChoiceViolation(err: unknown): boolean {
  return /tool choice was required/i.test(oneLine(err));
}

function stop(r: LoopResult, spec: ReactSpec, end: (s: 'failed', e: string) => LoopResult): LoopResult {
  r.stopped = true;
  const why = spec.stopReason();
  r.trace.push(`· ${why}`);
  return end('failed', why);
}

/**
 * Why a node's signal fired: its time limit (the search aborts with a TimeoutError, as
 * AbortSignal.timeout does) or the run stopping (any other reason).
 */
export function stopReason(task: NodeTask): string {
  const reason: unknown = task.signal.reason;
  const name = reason instanceof Error || reason instanceof DOMException ? reason.name : '';
  if (name === 'TimeoutError') return `node stopped after its time limit (SVC_TIMEOUT_NODE=${task.ctx.settings.timeoutNodeS} s); its processes were ended`;
  const detail = typeof reason === 'string' ? reason : reason instanceof Error && name !== 'AbortError' ? reason.message : '';
  return `node stopped because the run stopped${detail ? ` (${detail})` : ''}; its processes were ended`;
}
