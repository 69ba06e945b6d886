/**
 * Text as LaTeX that every engine and font encoding sets, in plain ASCII: BibTeX reads bytes, and
 * pdflatex stops at a Unicode character its encoding lacks (CJK, most symbols), so a reference
 * list from arbitrary titles must not carry raw Unicode. Accented letters become accent
 * commands in braces (BibTeX then sorts and case-changes them right), Greek and common symbols
 * math commands; characters no command stands for are left out and counted.
 */
export function latexText(text: string): { latex: string; dropped: number } {
  let out = '';
  let dropped = 0;
  for (const ch of text.normalize('NFC')) {
    const known = ASCII_SPECIAL[ch] ?? (ch >= ' ' && ch <= '~' ? ch : SYMBOLS[ch]);
    const { piece, lost } = known === undefined ? accented(ch) : { piece: known, lost: 0 };
    out += piece;
    dropped += lost;
  }
  return { latex: out.replace(/ {2,}/g, ' ').trim(), dropped };
}

/** ASCII characters LaTeX treats as commands; braces as text commands, so BibTeX's brace count stays balanced. */
const ASCII_SPECIAL: Readonly<Record<string, string>> = {
  '\\': '\\textbackslash{}',
  '{': '\\textbraceleft{}',
  '}': '\\textbraceright{}',
  $: '\\$',
  '&': '\\&',
  '%': '\\%',
  '#': '\\#',
  _: '\\_',
  '^': '\\textasciicircum{}',
  '~': '\\textasciitilde{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
  '"': "''",
  '\t': ' ',
  '\n': ' ',
  '\r': ' ',
};

const GREEK = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi o pi rho varsigma sigma tau upsilon phi chi psi omega'.split(' ');
/** Capitals from U+0391 (U+03A2 is unassigned): a Latin letter where LaTeX has no command, as math does. */
const GREEK_UPPER = 'A B \\Gamma \\Delta E Z H \\Theta I K \\Lambda M N \\Xi O \\Pi P - \\Sigma T \\Upsilon \\Phi X \\Psi \\Omega'.split(' ');

const SYMBOLS: Readonly<Record<string, string>> = {
  '\u00a0': '~', '–': '--', '—': '---', '‐': '-', '‑': '-', '−': '-', '‘': '`', '’': "'", '‚': ',', '“': '``', '”': "''", '„': ',,', '′': "'", '″': "''",
  '…': '\\ldots{}', '•': '\\textbullet{}', '·': '$\\cdot$', '×': '$\\times$', '÷': '$\\div$', '±': '$\\pm$', '≤': '$\\leq$', '≥': '$\\geq$',
  '≠': '$\\neq$', '≈': '$\\approx$', '∼': '$\\sim$', '∞': '$\\infty$', '→': '$\\rightarrow$', '←': '$\\leftarrow$', '↔': '$\\leftrightarrow$',
  '⇒': '$\\Rightarrow$', '∈': '$\\in$', '∑': '$\\sum$', '∏': '$\\prod$', '√': '$\\surd$', '∂': '$\\partial$', '∇': '$\\nabla$', '°': '\\textdegree{}',
  '©': '\\textcopyright{}', '®': '\\textregistered{}', '™': '\\texttrademark{}', '€': 'EUR', '£': '\\pounds{}', '§': '\\S{}', '¶': '\\P{}',
  'ß': '{\\ss}', 'æ': '{\\ae}', 'Æ': '{\\AE}', 'œ': '{\\oe}', 'Œ': '{\\OE}', 'ø': '{\\o}', 'Ø': '{\\O}', 'ł': '{\\l}', 'Ł': '{\\L}', 'ı': '{\\i}',
  'đ': 'd', 'Đ': 'D', 'ð': 'd', 'Ð': 'D', 'þ': 'th', 'Þ': 'Th', '¡': '{!`}', '¿': '{?`}', 'µ': '$\\mu$', 'ϵ': '$\\epsilon$', 'ϕ': '$\\phi$',
  ...Object.fromEntries(GREEK.map((name, i) => [String.fromCodePoint(0x3b1 + i), name === 'o' ? 'o' : `$\\${name}$`])),
  ...Object.fromEntries(GREEK_UPPER.flatMap((c, i) => (c === '-' ? [] : [[String.fromCodePoint(0x391 + i), c.startsWith('\\') ? `$${c}$` : c]]))),
};

/** Combining marks and the LaTeX accent each is. */
const ACCENTS: Readonly<Record<string, string>> = {
  '\u0300': '`', '\u0301': "'", '\u0302': '^', '\u0303': '~', '\u0304': '=', '\u0306': 'u', '\u0307': '.', '\u0308': '"', '\u030a': 'r',
  '\u030b': 'H', '\u030c': 'v', '\u0323': 'd', '\u0327': 'c', '\u0328': 'k', '\u0331': 'b',
};

/**
 * A letter with accents (é, ň, ế) as nested accent commands; an accent LaTeX has no command for
 * is left off the letter. Anything else is left out. `lost` counts what was left out.
 */
function accented(ch: string): { piece: string; lost: number } {
  const [base = '', ...marks] = [...ch.normalize('NFD')];
  if (!/^[A-Za-z]$/.test(base) || marks.length === 0) return { piece: '', lost: 1 };
  let out = base === 'i' ? '\\i' : base === 'j' ? '\\j' : base;
  let lost = 0;
  for (const m of marks) {
    const accent = ACCENTS[m];
    if (accent) out = `\\${accent}{${out}}`;
    else lost++;
  }
  return { piece: `{${out}}`, lost };
}

/** Prose as LaTeX (latexText), its paragraphs kept; what no command stands for is left out. */
export function escapeLatex(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => latexText(p).latex)
    .join('\n\n');
}

/** ASCII as latexLiteral prints it: each character as itself, not a command, a ligature or an argument. */
const LITERAL: Readonly<Record<string, string>> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  $: '\\$',
  '&': '\\&',
  '#': '\\#',
  '%': '\\%',
  _: '\\_\\allowbreak{}',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
  // a bracket after \\ or \item would be read as an optional argument; dashes would join into ligatures
  '[': '{[}',
  ']': '{]}',
  '-': '-{}',
  // quotes as typed, not curly or joined (`` and '' are ligatures)
  '`': '\\textasciigrave{}',
  "'": '\\textquotesingle{}',
  // where a long token (a path, a line of JSON) may break
  '/': '/\\allowbreak{}',
  ',': ',\\allowbreak{}',
  ':': ':\\allowbreak{}',
};

/**
 * Text shown as it is (ids, requirements, lines of a log): every character printed as itself,
 * spaces kept, line ends as spaces, control characters left out. With `unicode` (LuaLaTeX) other
 * characters pass as they are; under pdfLaTeX they are set as latexText sets them, and one no
 * command stands for is written as its code point ([U+4E2D]) rather than dropped.
 */
export function latexLiteral(text: string, unicode: boolean): string {
  let out = '';
  for (const ch of text.replace(/[\t\n\r]+/g, ' ').replace(/[\u0000-\u001F\u007F-\u009F]/g, '').normalize('NFC')) {
    const ascii = LITERAL[ch] ?? (ch >= ' ' && ch <= '~' ? ch : undefined);
    if (ascii !== undefined || unicode) {
      out += ascii ?? ch;
      continue;
    }
    const set = SYMBOLS[ch] ?? accented(ch);
    out += typeof set === 'string' ? set : set.lost === 0 ? set.piece : `{[}U+${(ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}{]}`;
  }
  return out;
}
