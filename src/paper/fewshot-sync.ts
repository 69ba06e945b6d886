import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic.ts';
import { exists } from '../core/paths.ts';
import { examplesDir } from './fewshot.ts';
import { corpusEntries } from './fewshot-corpus.ts';

/**
 * Copy the published corpus entries of a rubric into its examples directory. An entry any of
 * whose files is already there is skipped whole: the user's files are never overwritten, and an
 * excerpt is never paired with somebody else's review.
 */
export function syncCorpus(projectRoot: string, rubricId: string): { synced: string[]; skipped: string[] } {
  const dir = examplesDir(projectRoot, rubricId);
  const synced: string[] = [];
  const skipped: string[] = [];
  for (const entry of corpusEntries().filter((e) => e.rubric === rubricId)) {
    if (entry.files.some((f) => exists(join(dir, f.name)))) {
      skipped.push(entry.id);
      continue;
    }
    // the record last, as for uploads: an example exists once its .json does
    const ordered = [...entry.files].sort((a, b) => Number(a.name.endsWith('.json')) - Number(b.name.endsWith('.json')));
    for (const f of ordered) writeFileAtomic(join(dir, f.name), f.content);
    synced.push(entry.id);
  }
  return { synced, skipped };
}
