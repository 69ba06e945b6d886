import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect } from 'bun:test';

/** Runs a clone expected to fail; returns the error. */
export async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the clone to fail');
}

/** After a failed clone: no destination and no temporary directory beside it. */
export function nothingLeft(dest: string, keep: string[] = []): void {
  expect(existsSync(dest)).toBe(false);
  expect(readdirSync(dirname(dest)).filter((n) => n.includes('.clone-') || (!keep.includes(n) && n.startsWith('.')))).toEqual([]);
}
