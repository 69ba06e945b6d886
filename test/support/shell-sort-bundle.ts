import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEMO_N, DEMO_SEED, programFor } from './demo-program.ts';

/** The Shell-sort paper's code where a benchmark agent starts: the best Shell sort and the insertion-sort baseline. */
export function seedBundle(repo: string): void {
  const files: Record<string, string> = {
    'README.md': '# Shell sort bundle\nRun node code/best/shell.js and node code/baseline/insertion.js.\n',
    'RESULTS.md': '| config | comparisons |\n|---|---|\n| best | 32617 |\n| baseline | 1013583 |\n',
    'code/best/shell.js': programFor({ algorithm: 'shell', gapRatio: 2.2, seed: DEMO_SEED, n: DEMO_N }),
    'code/baseline/insertion.js': programFor({ algorithm: 'insertion', gapRatio: null, seed: DEMO_SEED, n: DEMO_N }),
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, name)), { recursive: true });
    writeFileSync(join(repo, name), text);
  }
}
