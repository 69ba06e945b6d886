/** Small helpers for writing SVG by hand. */

/** Text and attribute values escaped for XML; characters XML 1.0 forbids are dropped. */
export function esc(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** A coordinate with at most two decimals, so files stay small and deterministic. */
export function px(v: number): string {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}

type Attrs = Record<string, string | number | undefined>;

export function el(tag: string, attrs: Attrs, body?: string): string {
  let s = `<${tag}`;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined) continue;
    s += ` ${k}="${typeof v === 'number' ? px(v) : esc(v)}"`;
  }
  return body === undefined ? `${s}/>` : `${s}>${body}</${tag}>`;
}

export function text(x: number, y: number, content: string, attrs: Attrs = {}): string {
  return el('text', { x, y, ...attrs }, esc(content));
}

/**
 * Estimated advance width of `s` in DejaVu Sans at `size` px. Layout only needs an upper-ish bound:
 * DejaVu Sans averages a little under 0.6 em for digits and lower case, wider for capitals.
 */
export function textWidth(s: string, size: number): number {
  let em = 0;
  for (const ch of s) em += /[A-Z@%MW]/.test(ch) ? 0.72 : /[il.,:;'|!\s]/.test(ch) ? 0.32 : 0.6;
  return em * size;
}

/** At most `max` characters, the rest replaced by an ellipsis. */
export function clip(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`;
}

/** A standalone SVG document; the font is the one embedded for PNG rendering. */
export function svgDocument(width: number, height: number, title: string, body: string): string {
  const head = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, sans-serif">`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${head}${title ? el('title', {}, esc(title)) : ''}${body}</svg>\n`;
}
