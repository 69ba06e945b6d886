/** Elements whose text is not the page's: code, styling, embedded documents and forms' option lists. */
const HIDDEN = 'script, style, noscript, template, svg, math, iframe, object, head > *:not(title), select';
/** Elements that start a line of their own (none of them hidden or the title: an element gets one end-tag handler). */
const BLOCKS = 'p, div, br, hr, li, dt, dd, tr, h1, h2, h3, h4, h5, h6, pre, blockquote, section, article, header, footer, nav, aside, main, figure, figcaption, table, ul, ol, dl, form, address';

/**
 * The readable text of an HTML page, with Bun's HTMLRewriter (the lol-html streaming parser, built
 * into the runtime): hidden elements dropped, a line break at each block, entities decoded,
 * spaces collapsed. The title comes separately.
 */
export async function htmlToText(html: string): Promise<{ title: string; text: string }> {
  let hidden = 0;
  let inTitle = false;
  let title = '';
  const parts: string[] = [];
  const rewriter = new HTMLRewriter()
    .on(HIDDEN, {
      element(el) {
        if (!closes(el)) return;
        hidden++;
        el.onEndTag(() => {
          hidden--;
        });
      },
    })
    .on('title', {
      element(el) {
        inTitle = true;
        if (closes(el)) el.onEndTag(() => void (inTitle = false));
      },
    })
    .on(BLOCKS, {
      element(el) {
        parts.push('\n');
        if (closes(el)) el.onEndTag(() => void parts.push('\n'));
      },
    })
    .onDocument({
      text(chunk) {
        if (inTitle) title += chunk.text;
        else if (hidden === 0) parts.push(chunk.text);
      },
    });
  await rewriter.transform(new Response(html)).arrayBuffer();
  return { title: oneLine(decodeEntities(title)), text: tidy(decodeEntities(parts.join(''))) };
}

/** Whether the element has an end tag to wait for (a void element such as br has none). */
function closes(el: HTMLRewriterTypes.Element): boolean {
  return el.canHaveContent && !el.selfClosing;
}

/** Text pieces of HTML (a search result's snippet) as plain text: tags dropped, entities decoded. */
export function htmlFragmentText(html: string): string {
  return oneLine(decodeEntities(html.replace(/<[^>]*>/g, '')));
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”',
  laquo: '«', raquo: '»', copy: '©', reg: '®', trade: '™', deg: '°', middot: '·', bull: '•', times: '×', divide: '÷', plusmn: '±', minus: '−',
  le: '≤', ge: '≥', ne: '≠', asymp: '≈', infin: '∞', micro: 'µ', para: '¶', sect: '§', euro: '€', pound: '£', yen: '¥', cent: '¢', shy: '',
  eacute: 'é', egrave: 'è', ecirc: 'ê', euml: 'ë', aacute: 'á', agrave: 'à', acirc: 'â', auml: 'ä', aring: 'å', atilde: 'ã', ccedil: 'ç',
  iacute: 'í', igrave: 'ì', icirc: 'î', iuml: 'ï', oacute: 'ó', ograve: 'ò', ocirc: 'ô', ouml: 'ö', otilde: 'õ', oslash: 'ø', uacute: 'ú',
  ugrave: 'ù', ucirc: 'û', uuml: 'ü', ntilde: 'ñ', szlig: 'ß', Auml: 'Ä', Ouml: 'Ö', Uuml: 'Ü', Eacute: 'É', alpha: 'α', beta: 'β',
  gamma: 'γ', delta: 'δ', epsilon: 'ε', lambda: 'λ', mu: 'μ', pi: 'π', sigma: 'σ', theta: 'θ', omega: 'ω',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[A-Za-z]+);/g, (whole, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\uFFFD';
    }
    return ENTITIES[e] ?? whole;
  });
}

/** Spaces collapsed inside lines, empty lines dropped: a block is a line. */
function tidy(text: string): string {
  return text
    .split('\n')
    .map((l) => l.replace(/[ \t\r\f\v\u00a0]+/g, ' ').trim())
    .filter((l) => l !== '')
    .join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
