/**
 * Reading a TeX log: the first error with where it happened, and the warnings a paper must not
 * keep (undefined references and citations, overfull boxes). svc compiles with `-file-line-error`
 * and unwrapped log lines; logs made elsewhere are wrapped at 79 characters, which is undone first.
 */

export type TexError = {
  /** TeX's error line, `! ...` */
  message: string;
  /** the source file, as TeX names it (relative to the main file's directory, without `./`) */
  file: string | null;
  line: number | null;
  /** the source text TeX had read when it stopped (its `l.<n>` line) */
  context: string | null;
};

export type TexWarningKind = 'undefined_reference' | 'undefined_citation' | 'overfull_box' | 'other';
export type TexWarning = { kind: TexWarningKind; message: string; file: string | null; line: number | null };

/** Lines of a log as TeX meant them: a line of exactly 79 characters continues on the next. */
export function logLines(log: string): string[] {
  const out: string[] = [];
  let carry = '';
  for (const line of log.split(/\r?\n/)) {
    if (line.length === 79) carry += line;
    else {
      out.push(carry + line);
      carry = '';
    }
  }
  if (carry) out.push(carry);
  return out;
}

const FILE_LINE = /^(.*?\.(?:tex|sty|cls|clo|def|cfg|fd|ltx|bbl|aux|toc|dtx)):(\d+): (.*)$/;

/**
 * The first error of a log: a `! ...` line, or a `file:line: ...` line (`-file-line-error`). An
 * error TeX printed without a place (a missing file, say) takes the place of the next located one.
 */
export function firstTexError(log: string): TexError | null {
  const lines = logLines(log);
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] ?? '';
    const located = FILE_LINE.exec(text);
    const bang = text.startsWith('! ') ? text.slice(2).trim() : null;
    if (!located && bang === null) continue;
    const message = `! ${(bang ?? located?.[3] ?? '').trim()}`;
    const window = lines.slice(i + 1, i + 25);
    // the text TeX stopped at belongs to this error only up to the next one
    const next = window.findIndex((l) => l.startsWith('! ') || FILE_LINE.test(l));
    const context = window.slice(0, next < 0 ? undefined : next).find((l) => /^l\.\d+/.test(l));
    const place = located ?? window.map((l) => FILE_LINE.exec(l)).find((m) => m !== null) ?? null;
    const lineFromContext = context ? Number(/^l\.(\d+)/.exec(context)?.[1]) : null;
    return {
      message,
      file: place ? (place[1] ?? '').replace(/^\.\//, '') : null,
      line: place ? Number(place[2]) : lineFromContext,
      context: context ? context.replace(/^l\.\d+\s?/, '').trim() || null : null,
    };
  }
  return null;
}

/** One line: where, TeX's `!` line, and the text it stopped at. */
export function describeTexError(e: TexError): string {
  const where = e.file ? `${e.file}${e.line ? `:${e.line}` : ''}: ` : e.line ? `line ${e.line}: ` : '';
  return `${where}${e.message}${e.context ? ` (TeX stopped at: ${e.context})` : ''}`;
}

const UNDEFINED = /(?:LaTeX|Package \w+) Warning: (Reference|Citation) [`'](.+?)' on page \d+ undefined on input line (\d+)/;
const OVERFULL = /^Overfull \\[hv]box \((.+?)\) (?:in paragraph|in alignment|detected|has occurred)[^\d]*(?:(\d+)(?:--\d+)?)?/;
const OTHER = /^(?:LaTeX|Package [\w-]+|Class [\w-]+|LaTeX Font) Warning: /;
/** Summaries that repeat the warnings already listed one by one. */
const SUMMARY = /There were undefined (?:references|citations)|Label\(s\) may have changed|There were multiply-defined labels/;

/**
 * The warnings of a log, each once, with the source file where TeX was reading when it gave one
 * (followed through the `(file ... )` groups TeX prints as it opens and closes files).
 */
export function texWarnings(log: string): TexWarning[] {
  const out = new Map<string, TexWarning>();
  const files: (string | null)[] = [];
  const add = (w: TexWarning) => out.has(`${w.kind}:${w.message}`) || out.set(`${w.kind}:${w.message}`, w);
  const lines = logLines(log);
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] ?? '';
    const file = files.findLast((f) => f !== null) ?? null;
    let m: RegExpExecArray | null;
    if ((m = UNDEFINED.exec(text))) add({ kind: m[1] === 'Reference' ? 'undefined_reference' : 'undefined_citation', message: `${m[1]?.toLowerCase()} '${m[2]}' is undefined`, file, line: Number(m[3]) });
    else if ((m = OVERFULL.exec(text))) add({ kind: 'overfull_box', message: text.trim(), file, line: m[2] ? Number(m[2]) : null });
    else if (OTHER.test(text) && !SUMMARY.test(text)) {
      const message = warningText(text, lines, i);
      add({ kind: 'other', message, file, line: inputLine(message) });
    }
    trackFiles(text, files);
  }
  return [...out.values()];
}

/** A warning's text with its continuation lines (indented to the package's name), in one line. */
function warningText(first: string, lines: string[], i: number): string {
  let text = first.trim();
  for (let k = i + 1; k < lines.length && /^\([\w-]+\)\s+\S/.test(lines[k] ?? ''); k++) text += ` ${(lines[k] ?? '').replace(/^\([\w-]+\)\s+/, '')}`;
  return text.replace(/\s+/g, ' ');
}

function inputLine(text: string): number | null {
  const m = /on input line (\d+)/.exec(text);
  return m ? Number(m[1]) : null;
}

/** TeX prints `(<file>` when it opens a file and `)` when it closes it; other parentheses count as no file. */
function trackFiles(text: string, files: (string | null)[]): void {
  for (const m of text.matchAll(/\((\.{0,2}\/?[^\s()]+\.tex)|\(|\)/g)) {
    if (m[0] === ')') files.pop();
    else files.push(m[1] ? m[1].replace(/^\.\//, '') : null);
  }
}
