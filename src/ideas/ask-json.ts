import { log } from '../core/log.ts';
import { parseJsonAnswer } from '../llm/json-answer.ts';
import { ModelAnswerError } from '../llm/errors.ts';
import type { CallMeta, ChatMessage, CompletionRequest, ModelClient } from '../llm/client.ts';

/**
 * A JSON answer to `req`, checked by `problem`; a bad answer is asked again once with what was
 * wrong, then `what` and the problem make the error, naming the stage of the discussion that
 * failed. The templates ask for JSON themselves, so no instruction is added to the request.
 */
export async function askJson(client: Pick<ModelClient, 'complete'>, req: CompletionRequest, problem: (value: unknown) => string | null, what: string): Promise<Record<string, unknown>> {
  const messages: ChatMessage[] = [...req.messages];
  let last = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await client.complete({ ...req, messages });
    const parsed = parseJsonAnswer(answer.text);
    last = 'error' in parsed ? `not valid JSON (${parsed.error})` : (problem(parsed.value) ?? '');
    if (!last && 'value' in parsed) return parsed.value as Record<string, unknown>;
    if (attempt === 0) log.warn(`generate_ideas: ${what}: the idea model's answer was ${last}; asking once more`);
    messages.push({ role: 'assistant', content: answer.text }, { role: 'user', content: `Your answer was ${'error' in parsed ? last : `rejected: ${last}`}. Answer again with only the corrected JSON object.` });
  }
  throw new ModelAnswerError(`generate_ideas: ${what}: the idea model gave no usable JSON in 2 attempts: ${last}`, 'try a larger model for the idea role (SVC_MODEL_IDEA)');
}

/** The cost ledger's labels of an idea-skill call: `op` names the step, `nodeId` the node that asked. */
export function ideaCallMeta(op: string, nodeId?: string | null): CallMeta {
  return { phase: 'idea', skill: 'idea-skill', component: 'idea', op, ...(nodeId ? { node_id: nodeId } : {}) };
}

/** askJson of one system prompt and one user message, as every idea-skill step asks. */
export function askIdea(client: Pick<ModelClient, 'complete'>, turn: { system: string; user: string; meta: CallMeta; signal?: AbortSignal }, problem: (value: unknown) => string | null, what: string): Promise<Record<string, unknown>> {
  const messages: ChatMessage[] = [{ role: 'system', content: turn.system }, { role: 'user', content: turn.user }];
  return askJson(client, { role: 'idea', messages, meta: turn.meta, signal: turn.signal }, problem, what);
}
