/** Reading an OpenAI chat completions request body, as the scripted researcher needs it. */

export type OpenAIContent = string | null | { type?: string; text?: string }[];

export type OpenAIToolCall = { id: string; type?: string; function: { name: string; arguments: string } };

export type OpenAIMessage = { role: string; content?: OpenAIContent; tool_calls?: OpenAIToolCall[]; tool_call_id?: string; name?: string };

export type OpenAIChatRequest = {
  model?: string;
  messages?: OpenAIMessage[];
  tools?: { type?: string; function?: { name?: string } }[];
  tool_choice?: unknown;
  [key: string]: unknown;
};

export function textOf(content: OpenAIContent | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
}

export function messagesOf(body: OpenAIChatRequest): OpenAIMessage[] {
  return Array.isArray(body.messages) ? body.messages.filter((m) => m && typeof m === 'object') : [];
}

/** The `<group>/<name>` of the first system message that opens with `<!-- prompt: ... -->`. */
export function promptName(body: OpenAIChatRequest): string | null {
  // a JSON request puts its own instruction in a system message before the template
  for (const m of messagesOf(body)) {
    if (m.role !== 'system' && m.role !== 'developer') continue;
    const first = textOf(m.content).trimStart().split('\n')[0] ?? '';
    const name = /^<!--\s*prompt:\s*([\w./-]+)\s*-->/.exec(first)?.[1];
    if (name) return name;
  }
  return null;
}

/** The text of every message of these roles, in order, one per line group. */
export function textOfRoles(body: OpenAIChatRequest, roles: string[]): string {
  return messagesOf(body)
    .filter((m) => roles.includes(m.role))
    .map((m) => textOf(m.content))
    .join('\n\n');
}

/** A tool's own name: pools and providers may prefix it with its skill (`coding-skill__write_code`). */
export function bareToolName(name: string): string {
  return name.split(/__|[:./]/).at(-1) ?? name;
}

/** The name the request offers for a tool (prefix kept), or the bare name when it is not offered. */
export function offeredTool(body: OpenAIChatRequest, bare: string): string {
  const names = (Array.isArray(body.tools) ? body.tools : []).map((t) => t?.function?.name).filter((n): n is string => typeof n === 'string');
  return names.find((n) => bareToolName(n) === bare) ?? bare;
}

export function offersTools(body: OpenAIChatRequest): boolean {
  return Array.isArray(body.tools) && body.tools.length > 0 && body.tool_choice !== 'none';
}

/** The last number a text gives under a key, as `"key": 12`, `key=12` or `\"key\": 12` (quoted inside JSON). */
export function lastNumber(text: string, key: string): number | null {
  const re = new RegExp(`\\\\*"?\\b${key}\\\\*"?\\s*[:=]\\s*(-?\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?)`, 'gi');
  let found: number | null = null;
  for (const m of text.matchAll(re)) found = Number(m[1]);
  return found;
}

/** Every distinct number a text gives under a key. */
export function allNumbers(text: string, key: string): number[] {
  const re = new RegExp(`\\\\*"?\\b${key}\\\\*"?\\s*[:=]\\s*(-?\\d+(?:\\.\\d+)?)`, 'gi');
  return [...new Set([...text.matchAll(re)].map((m) => Number(m[1])))];
}
