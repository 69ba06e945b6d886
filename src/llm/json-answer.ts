import { ModelAnswerError } from './errors.ts';
import type { ChatMessage, Completion, CompletionRequest } from './types.ts';

/** What a caller's check says of a parsed value: null when it is acceptable, else what is wrong. */
export type JsonCheck = (value: unknown) => string | null;

export const JSON_INSTRUCTION = 'Answer with one JSON value and nothing else: no prose, no code fence.';

/**
 * Asks for JSON and parses the answer; on invalid JSON or a failed check, asks again (up to
 * `retries` times) with the answer and a message naming what was wrong, then gives up with a
 * ModelAnswerError.
 */
export async function completeJsonWith<T>(complete: (req: CompletionRequest) => Promise<Completion>, req: CompletionRequest, check: JsonCheck | undefined, retries: number): Promise<T> {
  const messages = withJsonInstruction(req.messages);
  let problem = '';
  let model = '';
  for (let attempt = 0; attempt <= retries; attempt++) {
    const answer = await complete({ ...req, messages });
    model = answer.model;
    const parsed = parseJsonAnswer(answer.text);
    problem = 'error' in parsed ? `not valid JSON (${parsed.error})` : (check?.(parsed.value) ?? '');
    if (!problem && 'value' in parsed) return parsed.value as T;
    messages.push(
      { role: 'assistant', content: answer.text },
      { role: 'user', content: `Your answer was ${'error' in parsed ? problem : `rejected: ${problem}`}. Answer again with only the corrected JSON value.` },
    );
  }
  const attempts = retries + 1;
  throw new ModelAnswerError(`the ${req.role} model ${model} gave no acceptable JSON in ${attempts} attempt${attempts > 1 ? 's' : ''}: the last answer was ${problem}`, 'try another model for this role, or a larger one');
}

/**
 * The JSON value in a model's answer: the whole text, the content of a ```json fence, or the span
 * from the first { or [ to the last } or ]. Reasoning in <think> tags is dropped first.
 */
export function parseJsonAnswer(text: string): { value: unknown } | { error: string } {
  const body = withoutThinking(text).trim();
  if (!body) return { error: 'the answer was empty' };
  const fence = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/.exec(body)?.[1]?.trim();
  const start = body.search(/[[{]/);
  const end = Math.max(body.lastIndexOf('}'), body.lastIndexOf(']'));
  const span = start >= 0 && end > start ? body.slice(start, end + 1) : undefined;
  let first: string | null = null;
  for (const candidate of [fence, body, span]) {
    if (candidate === undefined) continue;
    try {
      return { value: JSON.parse(candidate) };
    } catch (err) {
      first ??= (err as Error).message;
    }
  }
  return { error: first ?? 'no JSON found' };
}

/**
 * The text without its <think>…</think> spans, in one pass; an unclosed one stays. A lazy pattern
 * would read the rest of the answer again from every unclosed tag: minutes for a looping model.
 */
function withoutThinking(text: string): string {
  let kept = '';
  let at = 0;
  for (let open = text.indexOf('<think>'); open >= 0; open = text.indexOf('<think>', at)) {
    const close = text.indexOf('</think>', open + '<think>'.length);
    if (close < 0) break;
    kept += text.slice(at, open);
    at = close + '</think>'.length;
  }
  return kept + text.slice(at);
}

/**
 * The conversation with the JSON instruction: appended to a leading system message, so a template's
 * own first line stays the first line the model reads; a system message of its own otherwise.
 */
function withJsonInstruction(messages: ChatMessage[]): ChatMessage[] {
  const [first, ...rest] = messages;
  if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${JSON_INSTRUCTION}` }, ...rest];
  return [{ role: 'system', content: JSON_INSTRUCTION }, ...messages];
}
