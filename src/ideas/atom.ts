/**
 * The entries of an Atom feed as flat records of their simple child elements. The arXiv API's
 * feed is machine-written and flat, so a tag scanner is enough; nested elements (author) are
 * read as their text.
 */
export function atomEntries(xml: string): Record<string, string>[] {
  const entries: Record<string, string>[] = [];
  for (const m of xml.matchAll(/<entry\b[^>]*>([\s\S]*?)<\/entry>/g)) {
    const fields: Record<string, string> = {};
    for (const f of (m[1] ?? '').matchAll(/<([A-Za-z][\w:.-]*)\b[^>]*?(?:\/>|>([\s\S]*?)<\/\1>)/g)) {
      const name = f[1] ?? '';
      if (!(name in fields)) fields[name] = xmlText(f[2] ?? '');
    }
    entries.push(fields);
  }
  return entries;
}

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Element content as plain text: CDATA unwrapped, tags dropped, entities decoded, spaces collapsed. */
export function xmlText(raw: string): string {
  return raw
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, c: string) => c.replace(/[&<]/g, (ch) => (ch === '&' ? '&amp;' : '&lt;')))
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (whole, e: string) => {
      if (e.startsWith('#x')) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
      if (e.startsWith('#')) return String.fromCodePoint(Number(e.slice(1)));
      return NAMED[e] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}
