import { afterEach, beforeEach, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLineageDecisions } from '../../../src/run/lineage-decisions.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

const rec = (n: number) => ({ ts: n, trigger: 'stagnation_rule', executed: true, decision: { action: 'continue', target_idea_index: null } });
const write = (text: string) => writeFileSync(join(dir, 'lineage_decisions.jsonl'), text);

test('no file: no decisions', () => {
  expect(readLineageDecisions(dir)).toEqual([]);
});

test('every line parsed, in order', () => {
  write(`${[rec(1), rec(2), rec(3)].map((r) => JSON.stringify(r)).join('\n')}\n`);
  expect(readLineageDecisions(dir)).toEqual([rec(1), rec(2), rec(3)]);
});

test('a torn last line (a write cut short) is left out', () => {
  write(`${JSON.stringify(rec(1))}\n${JSON.stringify(rec(2)).slice(0, 20)}`);
  expect(readLineageDecisions(dir)).toEqual([rec(1)]);
});

test('a whole last record without its newline is kept', () => {
  write(`${JSON.stringify(rec(1))}\n${JSON.stringify(rec(2))}`);
  expect(readLineageDecisions(dir)).toEqual([rec(1), rec(2)]);
});

test('blank lines, damaged lines and non-objects in the middle are left out; the rest stays', () => {
  write(`${JSON.stringify(rec(1))}\n\n{oops\n[1,2]\n"text"\n${JSON.stringify(rec(2))}\n`);
  expect(readLineageDecisions(dir)).toEqual([rec(1), rec(2)]);
});

test('an empty file: no decisions', () => {
  write('');
  expect(readLineageDecisions(dir)).toEqual([]);
});
