/** What the bridge tests share: the demo's Shell-sort bundle seeded into a repository, and the error of a refused call. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SvcError } from '../../../src/core/errors.ts';

const program = (n: number) => `console.log(JSON.stringify({ comparisons: ${n}, sorted: 1 }));\n`;

/** The paper's code bundle in `root`: its docs and its best and baseline programs; `best` replaces the best program. */
export function seedBundle(root: string, best = program(20573)): void {
  const files: Record<string, string> = {
    'README.md': '# Shell sort bundle\nRun node code/best/shell.js and node code/baseline/insertion.js.\n',
    'RESULTS.md': '| config | comparisons |\n|---|---|\n| best | 20573 |\n| baseline | 1003112 |\n',
    'code/best/shell.js': best,
    'code/baseline/insertion.js': program(1003112),
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
}

/** The SvcError a promise is rejected with; fails the test when it resolves. */
export async function refusal(p: Promise<unknown>): Promise<SvcError> {
  const err = await p.then(
    () => new Error('resolved, expected a refusal'),
    (e: unknown) => e,
  );
  if (!(err instanceof SvcError)) throw err;
  return err;
}

/** A stand-in container runtime: it answers a version or info query as a live daemon, and runs `run`/`exec`'s last argument with bash. */
export const STAND_IN_RUNTIME = 'case "$1" in run|exec) for last; do :; done; exec bash -c "$last";; *) echo 27.0.0;; esac';
