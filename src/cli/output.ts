/** Printing helpers shared by commands: JSON for scripts, aligned tables for people. */
import { log } from '../core/log.ts';

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function print(line = ''): void {
  process.stdout.write(`${line}\n`);
}

export function warn(line: string): void {
  log.warn(line);
}

/** Columns padded to their widest cell; numbers right-aligned. */
export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number' || /^[$-]?[\d.,]+%?$|^-$/.test(String(r[i]))));
  return cells
    .map((r) =>
      r
        .map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function fmtScore(n: number | null | undefined): string {
  return typeof n === 'number' ? n.toFixed(3) : '-';
}

export function fmtCost(usd: number | null | undefined): string {
  return typeof usd === 'number' ? `$${usd.toFixed(usd < 1 ? 4 : 2)}` : '-';
}

/** 2026-11-22T09:41:00.000Z → 2026-11-22 09:41 (local time) */
export function fmtTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime()) || d.getTime() === 0) return '-';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
