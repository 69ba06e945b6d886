import { InputError } from '../../core/errors.ts';
import { isMapping } from '../../core/values.ts';
import type { ModelClient } from '../client.ts';
import type { ChatMessage } from '../types.ts';

export type GoalTurn = { role: 'user' | 'assistant'; content: string };
export type GoalAnswer = { reply: string; goal: string; model: string };

const MAX_TURNS = 40;

const INSTRUCTIONS = `You help a researcher turn a research goal into a clear experiment description for an automated research system that writes and runs experiments.
Ask at most one question at a time when something essential is missing (what is measured, against what baseline, on what hardware or data).
Answer as a JSON object {"reply": "<your message to the researcher>", "goal": "<the full refined goal in Markdown, or the current goal unchanged>"}.`;

/**
 * One turn of the wizard's goal conversation: the model answers the researcher and proposes the
 * refined goal text, which the dashboard shows for the researcher to accept or edit.
 */
export async function refineGoal(client: ModelClient, goal: string, history: GoalTurn[], signal?: AbortSignal): Promise<GoalAnswer> {
  if (goal.trim() === '' && history.length === 0) throw new InputError('give a goal or a message', 'send {goal: "..."} or {messages: [{role: "user", content: "..."}]}');
  if (history.length > MAX_TURNS) throw new InputError(`the conversation has ${history.length} turns; at most ${MAX_TURNS} are sent`, 'start a new conversation with the current goal');
  const messages: ChatMessage[] = [
    { role: 'system', content: INSTRUCTIONS },
    { role: 'user', content: `Current goal:\n${goal.trim() || '(none yet)'}` },
    ...history.map((t) => ({ role: t.role, content: t.content })),
  ];
  const value = await client.completeJson<{ reply: string; goal: string }>({ role: 'idea', messages, temperature: 0.3, meta: { phase: 'wizard', component: 'chat_goal' }, signal }, checkGoalAnswer);
  return { reply: value.reply, goal: value.goal.trim() === '' ? goal : value.goal, model: client.choice('idea').model };
}

function checkGoalAnswer(v: unknown): string | null {
  if (!isMapping(v)) return 'the answer must be a JSON object with "reply" and "goal"';
  if (typeof v.reply !== 'string' || v.reply.trim() === '') return '"reply" must be a non-empty string';
  if (typeof v.goal !== 'string') return '"goal" must be a string';
  return null;
}
