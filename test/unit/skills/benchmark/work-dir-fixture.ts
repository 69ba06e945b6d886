import { afterEach, beforeEach } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir } from '../../../support/svc.ts';

/** A fresh `base/work` for every test of the file, removed afterwards; SVC_WORK_DIR points at work. */
export function useWorkDir(): { base: () => string; work: () => string; ctx: () => { signal: AbortSignal; env: Record<string, string> } } {
  let base = '';
  beforeEach(() => {
    base = tempDir();
    mkdirSync(join(base, 'work'));
  });
  afterEach(() => removeDir(base));
  const work = () => join(base, 'work');
  return { base: () => base, work, ctx: () => ({ signal: new AbortController().signal, env: { SVC_WORK_DIR: work() } }) };
}
