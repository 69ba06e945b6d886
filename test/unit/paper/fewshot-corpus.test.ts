import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { corpusEntries } from '../../../src/paper/fewshot-corpus.ts';
import { CORPUS_FILES } from '../../../src/paper/fewshot-corpus/embedded.ts';
import { reviewRecord } from '../../../src/paper/fewshot-record.ts';
import { syncCorpus } from '../../../src/paper/fewshot-sync.ts';
import { bundledRubrics } from '../../../src/paper/rubrics.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const CORPUS_SRC = resolve(import.meta.dir, '../../../src/paper/fewshot-corpus');

describe('published corpus', () => {
  const entries = corpusEntries();

  test('at least two NeurIPS examples and one ICLR example, each with its record', () => {
    expect(entries.filter((e) => e.rubric === 'neurips').length).toBeGreaterThanOrEqual(2);
    expect(entries.filter((e) => e.rubric === 'iclr').length).toBeGreaterThanOrEqual(1);
    for (const e of entries) expect(e.files.map((f) => f.name)).toContain(`${e.id}.json`);
  });

  test('the manifest lists every embedded file, and every file on disk is embedded as it is', () => {
    const listed = entries.flatMap((e) => e.files.map((f) => `${e.rubric}/${f.name}`)).sort();
    expect([...CORPUS_FILES.keys()].sort()).toEqual(listed);
    const onDisk = readdirSync(CORPUS_SRC, { recursive: true, encoding: 'utf8' }).filter((p) => p.includes('/')).sort();
    expect(onDisk).toEqual(listed);
    for (const name of listed) expect(CORPUS_FILES.get(name)).toBe(readFileSync(join(CORPUS_SRC, name), 'utf8'));
  });

  test.each(corpusEntries().map((e) => [`${e.rubric}/${e.id}`, e] as const))('%s is a complete review following its rubric', (_name, e) => {
    const loaded = bundledRubrics().find((r) => r.id === e.rubric);
    if (!loaded) throw new Error(`no bundled rubric ${e.rubric}`);
    const record = JSON.parse(e.files.find((f) => f.name === `${e.id}.json`)?.content ?? '');
    expect(record._source).toBe('svc corpus');
    expect(reviewRecord(loaded, record)).toEqual({ ...record, _source: `rubric:${e.rubric}` });
    for (const d of loaded.rubric.score_dimensions) expect(typeof record[d.name]).toBe('number');
    for (const s of loaded.rubric.text_sections ?? []) if (s.required) expect(record[s.name]).toBeString();
    expect(record.decision).toBeString();
  });
});

describe('syncCorpus', () => {
  let root: string;
  let dir: string;
  beforeEach(() => {
    root = tempDir();
    dir = join(root, 'reviewer_rubrics', 'fewshot_examples', 'neurips');
  });
  afterEach(() => removeDir(root));

  test('copies the entries of the rubric; a second sync skips them all', () => {
    const ids = corpusEntries()
      .filter((e) => e.rubric === 'neurips')
      .map((e) => e.id);
    expect(syncCorpus(root, 'neurips')).toEqual({ synced: ids, skipped: [] });
    const files = corpusEntries()
      .filter((e) => e.rubric === 'neurips')
      .flatMap((e) => e.files.map((f) => f.name))
      .sort();
    expect(readdirSync(dir).sort()).toEqual(files);
    expect(syncCorpus(root, 'neurips')).toEqual({ synced: [], skipped: ids });
  });

  test('an entry with any file already there is skipped whole; the user file is kept', () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'attention_is_all_you_need.txt'), 'my own excerpt');
    const res = syncCorpus(root, 'neurips');
    expect(res.skipped).toEqual(['attention_is_all_you_need']);
    expect(res.synced).not.toContain('attention_is_all_you_need');
    expect(readFileSync(join(dir, 'attention_is_all_you_need.txt'), 'utf8')).toBe('my own excerpt');
    expect(readdirSync(dir)).not.toContain('attention_is_all_you_need.json');
  });

  test('a rubric without published examples: nothing to do, no directory made', () => {
    expect(syncCorpus(root, 'stoc')).toEqual({ synced: [], skipped: [] });
    expect(readdirSync(root)).toEqual([]);
  });
});
