/** Characters LaTeX gives a meaning, written so that they print as themselves. */
const SPECIAL: Readonly<Record<string, string>> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  $: '\\$',
  '&': '\\&',
  '#': '\\#',
  '%': '\\%',
  _: '\\_',
  '^': '\\textasciicircum{}',
  '~': '\\textasciitilde{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
};

/** Symbols a model's text often has that pdflatex's default fonts lack. */
const SYMBOLS: Readonly<Record<string, string>> = {
  '×': '$\\times$',
  '−': '-',
  '–': '--',
  '—': '---',
  '≈': '$\\approx$',
  '≤': '$\\leq$',
  '≥': '$\\geq$',
  '→': '$\\rightarrow$',
  '…': '\\ldots{}',
  '·': '$\\cdot$',
  '‘': '`',
  '’': "'",
  '“': '``',
  '”': "''",
};

/**
 * Plain text as LaTeX source that prints it, for pdflatex with its default UTF-8 input: specials
 * escaped, common symbols as commands, and any other character beyond Latin-1 (which the default
 * fonts cannot print, so pdflatex stops) as '?'.
 */
export function latexText(text: string): string {
  let out = '';
  for (const ch of text.replace(/\s+/g, ' ').trim()) {
    const cp = ch.codePointAt(0) as number;
    out += SPECIAL[ch] ?? SYMBOLS[ch] ?? (cp > 0xff || cp < 0x20 ? '?' : ch);
  }
  return out;
}
