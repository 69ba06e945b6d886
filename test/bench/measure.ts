/** Shared by the benchmarks: a median and one aligned line per figure, with its ratio and target. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
}

export function report(name: string, ms: number, baseMs: number, targetMs?: number): void {
  const verdict = targetMs === undefined ? '' : `  target < ${targetMs} ms: ${ms < targetMs ? 'met' : 'MISSED'}`;
  console.log(`${name.padEnd(48)} ${ms.toFixed(3).padStart(9)} ms  ${(ms / baseMs).toFixed(2).padStart(6)}x baseline${verdict}`);
}
