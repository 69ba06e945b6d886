import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic.ts';
import { InputError } from '../errors.ts';

export type DotenvEntry = { value: string; file: string };

/**
 * Parse `.env` text: `KEY=VALUE` lines (an optional `export ` prefix), `#` comments and blank lines
 * ignored, one pair of matching surrounding quotes stripped. A line without `=` is an error naming
 * the file and line, because silently skipping it would drop a key the user meant to set.
 */
export function parseDotenv(text: string, file: string): Map<string, string> {
  const out = new Map<string, string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const body = line.startsWith('export ') ? line.slice(7).trimStart() : line;
    const eq = body.indexOf('=');
    // the line is never echoed: a pasted key on a line of its own must not reach a terminal or log
    if (eq <= 0) throw new InputError(`${file}:${i + 1}: the line is not KEY=VALUE`, 'fix or comment out that line');
    const key = body.slice(0, eq).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
      throw new InputError(`${file}:${i + 1}: the name before = is not a variable name`, 'use letters, digits and _');
    }
    out.set(key, unquote(body.slice(eq + 1).trim()));
  });
  return out;
}

/**
 * Read `.env` files from `dirs` in priority order: a key from an earlier directory wins.
 * Missing files are skipped; unreadable or malformed ones are errors.
 */
export function loadDotenvChain(dirs: string[]): Map<string, DotenvEntry> {
  const merged = new Map<string, DotenvEntry>();
  const seen = new Set<string>();
  for (const dir of dirs) {
    const file = join(dir, '.env');
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    for (const [key, value] of parseDotenv(readFileSync(file, 'utf8'), file)) {
      if (!merged.has(key)) merged.set(key, { value, file });
    }
  }
  return merged;
}

/**
 * The text of a `.env` file with keys set, every other line (comments included) kept as it was.
 * A key written more than once keeps only its first line, now with the new value, so the new
 * value is the one every reader sees. Throws, writing nothing, on a file or value it cannot write.
 */
export function dotenvWithUpdates(file: string, updates: Record<string, string>): string {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  parseDotenv(text, file); // refuse to rewrite a file we cannot read back
  const quoted = new Map(Object.entries(updates).map(([k, v]) => [k, quote(v)]));
  const done = new Set<string>();
  const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const kept = lines.flatMap((line) => {
    const key = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];
    if (key === undefined || !quoted.has(key)) return [line];
    if (done.has(key)) return [];
    done.add(key);
    return [`${key}=${quoted.get(key)}`];
  });
  for (const [key, value] of quoted) if (!done.has(key)) kept.push(`${key}=${value}`);
  return `${kept.join('\n')}\n`;
}

/** Set keys in a `.env` file, atomically and readable by its owner only, since it holds secrets. */
export function updateDotenv(file: string, updates: Record<string, string>): void {
  writeFileAtomic(file, dotenvWithUpdates(file, updates), 0o600);
}

/** A quoted value ends at its closing quote; anything after it, or after ` #` in an unquoted one, is a comment. */
function unquote(v: string): string {
  const q = v[0];
  if (q === '"' || q === "'") {
    const close = v.indexOf(q, 1);
    if (close > 0 && /^\s*(#.*)?$/.test(v.slice(close + 1))) return v.slice(1, close);
  }
  const hash = v.search(/\s#/);
  return hash >= 0 ? v.slice(0, hash).trimEnd() : v;
}

function quote(v: string): string {
  if (/[\r\n]/.test(v)) throw new InputError('a .env value cannot span lines');
  if (!/[\s#"'=]/.test(v)) return v;
  if (!v.includes('"')) return `"${v}"`;
  if (!v.includes("'")) return `'${v}'`;
  throw new InputError('a .env value cannot hold both kinds of quote');
}
