/** What a model's answer without a tool call says about the node. */
export type FinishAnswer =
  | { kind: 'success'; summary: string; artifacts: unknown[] }
  /** the model gave up; refused, a node debugs instead */
  | { kind: 'failed'; summary: string }
  /** no usable finishing JSON */
  | { kind: 'none' };

/**
 * Reads `{"status": ..., "summary": ..., "artifacts": [...]}` out of an answer: the whole text,
 * else a fenced block, else the outermost braces (models wrap JSON in prose and think-blocks).
 */
export function parseFinish(text: string): FinishAnswer {
  const value = findObject(text.replace(/<think>[\s\S]*?<\/think>/g, ''));
  if (!value || typeof value.status !== 'string') return { kind: 'none' };
  const summary = typeof value.summary === 'string' ? value.summary : '';
  const status = value.status.toLowerCase();
  if (status === 'success') return { kind: 'success', summary, artifacts: Array.isArray(value.artifacts) ? value.artifacts : [] };
  if (status === 'failed' || status === 'failure' || status === 'error') return { kind: 'failed', summary };
  return { kind: 'none' };
}

function findObject(text: string): Record<string, unknown> | null {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  const candidates = [text.trim(), fenced?.trim(), first >= 0 && last > first ? text.slice(first, last + 1) : undefined];
  for (const c of candidates) {
    if (!c) continue;
    try {
      const v: unknown = JSON.parse(c);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // next candidate
    }
  }
  return null;
}
