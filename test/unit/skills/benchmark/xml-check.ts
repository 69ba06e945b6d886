/**
 * A strict-enough well-formedness check for the SVG we write: one root element, every tag closed in
 * order, attributes quoted, no raw `<` or stray `&` in text or attribute values.
 */
export function checkWellFormed(xml: string): { root: string; elements: number } {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/y;
  const stack: string[] = [];
  let root = '';
  let elements = 0;
  let pos = 0;
  while (pos < body.length) {
    token.lastIndex = pos;
    const m = token.exec(body);
    if (!m) throw new Error(`not well-formed at offset ${pos}: ${body.slice(pos, pos + 40)}`);
    pos = token.lastIndex;
    const [, closing, name, attrs, selfClosing, text] = m;
    if (text !== undefined) {
      if (stack.length === 0 && text.trim() !== '') throw new Error('text outside the root element');
      checkEntities(text);
      continue;
    }
    checkEntities(attrs ?? '');
    if (closing) {
      if (stack.pop() !== name) throw new Error(`</${name}> closes the wrong element`);
      continue;
    }
    if (stack.length === 0) {
      if (root) throw new Error('more than one root element');
      root = name as string;
    }
    elements++;
    if (!selfClosing) stack.push(name as string);
  }
  if (stack.length) throw new Error(`unclosed <${stack.at(-1)}>`);
  return { root, elements };
}

function checkEntities(s: string): void {
  const bad = s.match(/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/);
  if (bad) throw new Error(`a bare & in ${JSON.stringify(s.slice(0, 40))}`);
}
