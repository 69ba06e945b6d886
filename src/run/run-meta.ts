import { join } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import { readRecord } from '../core/checkpoint/records.ts';
import { InvalidRecordError } from '../core/errors.ts';
import { RunMeta } from '../schema/checkpoint.ts';

export const META_FILE = 'meta.json';

/** meta.json as a launcher writes it: a sub-experiment names its parent; a top-level run has null. */
export type SubExperimentMeta = Required<RunMeta> & { checkpoint_dir: string };

/** A checkpoint's meta.json; null when it has none (a top-level run). A broken one is refused, naming the file. */
export function readRunMeta(dir: string): RunMeta | null {
  const problems: string[] = [];
  const meta = readRecord(dir, META_FILE, RunMeta, problems);
  if (problems.length > 0) throw new InvalidRecordError(problems[0] ?? `${META_FILE} is unusable`, 'fix or remove it');
  return meta;
}

export function writeRunMeta(dir: string, meta: SubExperimentMeta): void {
  writeJsonAtomic(join(dir, META_FILE), meta);
}
