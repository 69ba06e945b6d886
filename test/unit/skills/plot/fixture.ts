import { afterEach, beforeEach } from 'bun:test';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ScienceData } from '../../../../src/schema/science-data.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

const FIXTURES = resolve(import.meta.dir, '../../../fixtures/science-data');

/** Five sorting configurations: a baseline, three Shell sort gap ratios (a sweep), merge sort. */
export const scienceData = (): ScienceData => JSON.parse(readFileSync(join(FIXTURES, 'sorting.json'), 'utf8'));
const NODES_FIXTURE = join(FIXTURES, 'sorting-nodes-tree.json');

export type Place = { base: string; checkpoint: string; out: string; home: string; nodesTree: string; science(data?: unknown): string };

/** A fresh checkpoint for every test: science_data.json written there on demand, figures to out/. */
export function usePlace(): () => Place {
  let place: Place | undefined;
  beforeEach(() => {
    const base = tempDir('svc-plot-');
    const checkpoint = join(base, 'checkpoint');
    const home = join(base, 'home');
    mkdirSync(checkpoint);
    mkdirSync(home);
    // the run's node tree, in its checkpoint as the pipeline writes it
    const nodesTree = join(checkpoint, 'nodes_tree.json');
    copyFileSync(NODES_FIXTURE, nodesTree);
    place = {
      base,
      checkpoint,
      out: join(checkpoint, 'figures'),
      home,
      nodesTree,
      science: (data: unknown = scienceData()) => {
        const path = join(checkpoint, 'science_data.json');
        writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
        return path;
      },
    };
  });
  afterEach(() => {
    if (place) removeDir(place.base);
  });
  return () => place as Place;
}
