import type { ChatMessage } from '../llm/types.ts';
import { headTail } from './truncate.ts';

/** Messages after the first two that the model sees again on each step. */
export const CONTEXT_RECENT_MESSAGES = 20;
/** The newest messages keep their tool results whole; older ones in the window are shortened. */
const KEEP_WHOLE = 6;
const OLD_RESULT_MAX_CHARS = 500;
const OLD_RESULT_KEPT_CHARS = 400;

/**
 * What the model is sent on one step: the system prompt, the task, and the newest messages. The
 * window never starts with a tool result whose call was cut away (providers refuse those), and
 * long tool results beyond the newest few are reduced to head and tail, so a long node stays
 * within the context a model has.
 */
export function contextWindow(history: ChatMessage[]): ChatMessage[] {
  const head = history.slice(0, 2);
  let start = Math.max(2, history.length - CONTEXT_RECENT_MESSAGES);
  while (start < history.length && history[start]?.role === 'tool') start++;
  const recent = history.slice(start);
  return [
    ...head,
    ...recent.map((m, i) => (m.role === 'tool' && i < recent.length - KEEP_WHOLE && m.content.length > OLD_RESULT_MAX_CHARS ? { ...m, content: headTail(m.content, OLD_RESULT_KEPT_CHARS) } : m)),
  ];
}
