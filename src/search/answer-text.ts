/** A model's answer without reasoning blocks (<think>…</think>, also an unclosed one at the end). */
export function withoutThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?(<\/think>|$)/g, '').trim();
}
