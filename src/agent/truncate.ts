/** Tool results longer than this reach the model cut to their head and tail. */
export const TOOL_RESULT_MAX_CHARS = 4000;

/**
 * `text` cut to at most about `max` characters: the head and the tail, which is where a program's
 * setup and its final numbers are, with a marker saying how much of the middle was left out.
 */
export function headTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  const cut = text.length - 2 * half;
  return `${text.slice(0, half)}\n…[${cut} characters cut]…\n${text.slice(text.length - half)}`;
}
