/** Artifacts are read this far for numbers: node outputs can be large, the metric line is short. */
const MAX_SCAN_CHARS = 256 * 1024;
const NUMBER = String.raw`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`;

/**
 * The text of a node's artifacts, as the judge and the extractor read them: an artifact's string
 * fields as they are (JSON would escape the newlines of a program's output), other values as JSON.
 */
export function artifactsText(artifacts: unknown[]): string {
  const field = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  return artifacts
    .map((a) => (a !== null && typeof a === 'object' && !Array.isArray(a) ? Object.entries(a).map(([k, v]) => `${k}: ${field(v)}`).join('\n') : field(a)))
    .join('\n');
}

/** A metric name as a pattern: `top_1_accuracy` also matches "top-1 accuracy" and "Top 1 Accuracy". */
export function keyPattern(key: string): string {
  return key
    .split(/[ _-]+/)
    .filter(Boolean)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('[ _-]?');
}

/**
 * The last value the text reports for `key` as `key: 0.91`, `key = 0.91` or `"key": 0.91` — the
 * last, because a run prints its final number after the intermediate ones. Null when none.
 */
export function extractMetric(text: string, key: string): number | null {
  if (!key) return null;
  const re = new RegExp(String.raw`(?<![A-Za-z0-9_])${keyPattern(key)}(?![A-Za-z0-9])["'\\]*\s*(?:[:=]|is)\s*["']?(${NUMBER})`, 'gi');
  let last: number | null = null;
  for (const m of text.slice(-MAX_SCAN_CHARS).matchAll(re)) {
    const value = Number(m[1]);
    if (Number.isFinite(value)) last = value;
  }
  return last;
}
