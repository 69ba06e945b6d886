/**
 * The demo experiment's program, as the scripted researcher writes it: a Node.js script that sorts
 * a seeded pseudo-random array with insertion sort or a Shell sort whose gaps grow by a ratio, and
 * prints the comparisons it made as one JSON line. Integer arithmetic and IEEE multiplication
 * only, no clock, no packages: the output is the same on every machine, so a recorded run's
 * model requests (which quote it) are the same on replay.
 */

export type Variant = { algorithm: 'insertion' | 'shell'; gapRatio: number | null; seed: number; n: number };

export const DEMO_N = 2000;
export const DEMO_SEED = 42;
export const PROGRAM_FILE = 'sort_experiment.js';

/** The variant a node's direction asks for: `gap_ratio=X` means Shell sort, `seed=N` another array. */
export function variantOf(direction: string): Variant {
  const ratio = /gap_ratio\s*=\s*(\d+(?:\.\d+)?)/i.exec(direction)?.[1];
  const seed = /\bseed\s*=\s*(\d+)/i.exec(direction)?.[1];
  const gapRatio = ratio === undefined ? null : Number(ratio);
  const usable = gapRatio !== null && gapRatio > 1 && gapRatio <= 10;
  return { algorithm: usable ? 'shell' : 'insertion', gapRatio: usable ? gapRatio : null, seed: seed === undefined ? DEMO_SEED : Number(seed), n: DEMO_N };
}

/** The complete program for a variant. */
export function programFor(v: Variant): string {
  return `// ${v.algorithm === 'shell' ? `Shell sort, gaps growing by ratio ${v.gapRatio}` : 'insertion sort (baseline)'}; counts comparisons.
'use strict';
const N = ${v.n};
const SEED = ${v.seed};
const ALGORITHM = '${v.algorithm}';
const GAP_RATIO = ${v.gapRatio ?? 'null'};

// mulberry32: a 32-bit generator whose sequence is fixed by its seed on every platform
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

function gaps(n, ratio) {
  if (ratio === null) return [1];
  const out = [];
  for (let h = 1; h < n; h = Math.max(h + 1, Math.floor(h * ratio))) out.push(h);
  return out.reverse();
}

function sort(a, gapList) {
  let comparisons = 0;
  let moves = 0;
  for (const h of gapList) {
    for (let i = h; i < a.length; i++) {
      const x = a[i];
      let j = i;
      while (j >= h) {
        comparisons++;
        if (a[j - h] <= x) break;
        a[j] = a[j - h];
        moves++;
        j -= h;
      }
      a[j] = x;
    }
  }
  return { comparisons, moves };
}

const next = generator(SEED);
const data = Array.from({ length: N }, () => next() % 100000);
const gapList = gaps(N, GAP_RATIO);
const { comparisons, moves } = sort(data, gapList);
const sorted = data.every((x, i) => i === 0 || data[i - 1] <= x) ? 1 : 0;
console.log(\`\${ALGORITHM} sort of \${N} integers (seed \${SEED}): \${comparisons} comparisons, \${moves} moves, \${gapList.length} gaps\`);
console.log(JSON.stringify({ params: { algorithm: ALGORITHM, gap_ratio: GAP_RATIO, seed: SEED, n: N }, measurements: { comparisons, moves, passes: gapList.length, sorted } }));
`;
}

/** The params and measurements of the JSON line a program printed last; null when it printed none. */
export function parseProgramOutput(stdout: string): { params: Record<string, unknown>; measurements: Record<string, number> } | null {
  const lines = stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('{') && l.includes('measurements'));
  for (const line of lines.reverse()) {
    try {
      const v = JSON.parse(line) as { params?: unknown; measurements?: unknown };
      if (!v.measurements || typeof v.measurements !== 'object') continue;
      const measurements = Object.fromEntries(Object.entries(v.measurements).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1])));
      if (Object.keys(measurements).length === 0) continue;
      const params = v.params && typeof v.params === 'object' ? Object.fromEntries(Object.entries(v.params).filter(([, x]) => x !== null)) : {};
      return { params, measurements };
    } catch {
      // not a JSON line after all: look at the one before
    }
  }
  return null;
}
