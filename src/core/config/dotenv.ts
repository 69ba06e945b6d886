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
    if (eq <= 0) {
      throw new InputError(`${file}:${i + 1}: '${truncate(line)}' is not KEY=VALUE`, 'fix or comment out that line');
    }
    const key = body.slice(0, eq).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
      throw new InputError(`${file}:${i + 1}: '${truncate(key)}' is not a valid variable name`, 'use letters, digits and _');
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
 * Set keys in a `.env` file, keeping every other line (comments included) as it was.
 * The file is written atomically and readable by its owner only, since it holds secrets.
 */
export function updateDotenv(file: string, updates: Record<string, string>): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  parseDotenv(text, file); // refuse to rewrite a file we cannot read back
  const pending = new Map(Object.entries(updates));
  const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const kept = lines.map((line) => {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line);
    const key = m?.[1];
    if (key === undefined || !pending.has(key)) return line;
    const value = pending.get(key) ?? '';
    pending.delete(key);
    return `${key}=${quote(value)}`;
  });
  for (const [key, value] of pending) kept.push(`${key}=${quote(value)}`);
  writeFileAtomic(file, `${kept.join('\n')}\n`, 0o600);
}

function unquote(v: string): string {
  if (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v.at(-1) === v[0]) return v.slice(1, -1);
  // an unquoted value may carry a trailing comment
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

function truncate(s: string): string {
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}
