import { afterEach, beforeEach, expect, test } from 'bun:test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RotatingLog } from '../../../src/core/rotating-log.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

test('a full log is renamed to <stem>.<n><ext>, a larger n always newer, and appending goes on in a fresh file', () => {
  const log = new RotatingLog(join(dir, 'viz_access.jsonl'), 100);
  // a part from the future: the next one must still sort after it
  const future = Math.floor(Date.now() / 1000) + 1000;
  writeFileSync(join(dir, `viz_access.${future}.jsonl`), 'old\n');
  writeFileSync(join(dir, 'viz_access.summary.jsonl'), 'not a part\n');
  for (let i = 0; i < 3; i++) log.append(`${String(i).repeat(60)}\n`);
  const parts = readdirSync(dir).filter((n) => /^viz_access\.\d+\.jsonl$/.test(n)).sort();
  expect(parts).toEqual([`viz_access.${future}.jsonl`, `viz_access.${future + 1}.jsonl`]);
  expect(readFileSync(join(dir, `viz_access.${future + 1}.jsonl`), 'utf8')).toBe(`${'0'.repeat(60)}\n${'1'.repeat(60)}\n`);
  expect(readFileSync(join(dir, 'viz_access.jsonl'), 'utf8')).toBe(`${'2'.repeat(60)}\n`);
});

test('while another writer holds the rotation lock, lines are appended to the live log, none lost', () => {
  const file = join(dir, 'a.jsonl');
  writeFileSync(file, 'x'.repeat(50));
  writeFileSync(join(dir, '.a.rotate.lock'), '');
  new RotatingLog(file, 10).append('line\n');
  expect(readFileSync(file, 'utf8')).toBe(`${'x'.repeat(50)}line\n`);
  expect(readdirSync(dir).filter((n) => /^a\.\d+\.jsonl$/.test(n))).toEqual([]);
});

test('a log that cannot be written throws, so the caller can say so', () => {
  expect(() => new RotatingLog(join(dir, 'gone', 'a.jsonl'), 10).append('line\n')).toThrow();
});
