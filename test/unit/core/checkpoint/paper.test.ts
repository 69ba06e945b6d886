import { afterEach, beforeEach, describe, expect, spyOn, test } from 'bun:test';
import { mkdirSync, readFileSync, renameSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pagesRecordPath, paperFacts, recordedPages, recordPages } from '../../../../src/core/checkpoint/paper.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

const pdf = (body = 'x'.repeat(2000)) => {
  writeFileSync(join(dir, 'full_paper.pdf'), `%PDF-1.5\n${body}`);
  return join(dir, 'full_paper.pdf');
};

describe("a run's paper pages", () => {
  test('the page count recorded beside the PDF, while the PDF has the size and mtime it was counted at', () => {
    const file = pdf();
    recordPages(file, 4);
    expect(pagesRecordPath(file)).toBe(join(dir, 'full_paper.pages.json'));
    expect(paperFacts(dir)).toEqual({ tex_path: null, pdf_path: file, title: null, pages: 4 });
    // the PDF made again, another size: the record counted another PDF
    pdf('y'.repeat(3000));
    expect(recordedPages(file)).toBeNull();
    expect(paperFacts(dir)?.pages).toBeNull();
  });

  test('a PDF of the same size written later is not the one counted', () => {
    const file = pdf();
    recordPages(file, 4);
    utimesSync(file, new Date(), new Date(Date.now() + 60_000));
    expect(recordedPages(file)).toBeNull();
  });

  test('no record, or a damaged one: no page count, and nothing is run to count them', () => {
    const file = pdf();
    const spawnSync = spyOn(Bun, 'spawnSync');
    const spawn = spyOn(Bun, 'spawn');
    try {
      expect(paperFacts(dir)?.pages).toBeNull();
      writeFileSync(pagesRecordPath(file), '{"pages": 4');
      expect(paperFacts(dir)?.pages).toBeNull();
      writeFileSync(pagesRecordPath(file), JSON.stringify({ pdf: 'other.pdf', pages: 4, size: 2009, mtime_ms: 0 }));
      expect(paperFacts(dir)?.pages).toBeNull();
      expect(spawnSync).not.toHaveBeenCalled();
      expect(spawn).not.toHaveBeenCalled();
    } finally {
      spawnSync.mockRestore();
      spawn.mockRestore();
    }
  });

  test('a record that is a symlink, not a regular file, or over 4 KiB is not read', () => {
    const file = pdf();
    recordPages(file, 4);
    const record = pagesRecordPath(file);
    const text = readFileSync(record, 'utf8');
    expect(recordedPages(file)).toBe(4);
    // the same record elsewhere, linked to
    writeFileSync(join(dir, 'elsewhere.json'), text);
    renameSync(record, join(dir, 'moved.json'));
    symlinkSync(join(dir, 'elsewhere.json'), record);
    expect(recordedPages(file)).toBeNull();
    expect(paperFacts(dir)?.pages).toBeNull();
    // a directory
    removeDir(record);
    mkdirSync(record);
    expect(recordedPages(file)).toBeNull();
    removeDir(record);
    // a record padded past the cap is not parsed
    writeFileSync(record, text.replace('{', `{${' '.repeat(4096)}`));
    expect(recordedPages(file)).toBeNull();
    writeFileSync(record, text);
    expect(recordedPages(file)).toBe(4);
  });
});
