import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paperContextVars } from '../../../src/pipeline/paper-context.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

describe('paper_context and keywords of the post-search stages', () => {
  test('the experiment, the idea the search followed and its best result; the idea and experiment titles as keywords', () => {
    writeFileSync(join(dir, 'experiment.md'), '# Fewer comparisons, sorted\n\nSort a seeded array with fewer comparisons.\n');
    writeFileSync(join(dir, 'idea.json'), JSON.stringify({ ideas: [{ title: 'Binary insertion sort', description: 'Binary search for the slot.' }, { title: 'Other' }], primary_metric: 'comparisons' }));
    writeFileSync(
      join(dir, 'tree.json'),
      JSON.stringify({ nodes: [{ id: 'n1', metrics: { _scientific_score: 0.4 } }, { id: 'n2', metrics: { _scientific_score: 0.8, comparisons: 40, _measurements_dict: { comparisons: 40, sorted: 1, note: 'x' } } }] }),
    );
    expect(paperContextVars(dir)).toEqual({
      paper_context: '# Experiment\n# Fewer comparisons, sorted\n\nSort a seeded array with fewer comparisons.\n\n# Idea\nBinary insertion sort\nBinary search for the slot.\n\n# Best result\nnode n2 (score 0.8): comparisons = 40, sorted = 1',
      keywords: 'Binary insertion sort, Fewer comparisons sorted',
    });
  });

  test('a checkpoint without those files gives empty values, not an error', () => {
    expect(paperContextVars(dir)).toEqual({ paper_context: '', keywords: '' });
    writeFileSync(join(dir, 'idea.json'), '{not json');
    expect(paperContextVars(dir)).toEqual({ paper_context: '', keywords: '' });
  });
});
