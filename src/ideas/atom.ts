/**
 * The entries of an Atom feed as flat records of their simple child elements. The arXiv API's
 * feed is machine-written and flat, so a tag scanner is enough; nested elements (author) are
 * read as their text, the first of a repeated element kept.
 */
export function atomEntries(xml: string): Record<string, string>[] {
  return entryBodies(xml).map((body) => {
    const fields: Record<string, string> = {};
    for (const f of body.matchAll(/<([A-Za-z][\w:.-]*)\b[^>]*?(?:\/>|>([\s\S]*?)<\/\1>)/g)) {
      const name = f[1] ?? '';
      if (!(name in fields)) fields[name] = xmlText(f[2] ?? '');
    }
    return fields;
  });
}

/** Every author name of each entry, in the order of atomEntries: a citation needs them all, not the first. */
export function atomAuthors(xml: string): string[][] {
  return entryBodies(xml).map((body) =>
    [...body.matchAll(/<author\b[^>]*>([\s\S]*?)<\/author>/g)].map((a) => xmlText(/<name\b[^>]*>([\s\S]*?)<\/name>/.exec(a[1] ?? '')?.[1] ?? '')).filter((n) => n !== ''),
  );
}

/** The attributes of every `<link>` of each entry (rel, title, href, type), decoded, in the order of atomEntries. */
export function atomLinks(xml: string): Record<string, string>[][] {
  return entryBodies(xml).map((body) =>
    [...body.matchAll(/<link\b([^>]*?)\/?>/g)].map((l) => Object.fromEntries([...(l[1] ?? '').matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)].map((a) => [a[1] ?? '', xmlText(a[2] ?? a[3] ?? '')]))),
  );
}

function entryBodies(xml: string): string[] {
  return [...xml.matchAll(/<entry\b[^>]*>([\s\S]*?)<\/entry>/g)].map((m) => m[1] ?? '');
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
