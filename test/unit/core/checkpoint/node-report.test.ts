import { afterEach, beforeEach, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readNodeReport } from '../../../../src/core/checkpoint/node-report.ts';
import { InvalidRecordError } from '../../../../src/core/errors.ts';
import { InputError, NotFoundError } from '../../../../src/core/errors.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let ws: string;
beforeEach(() => {
  ws = tempDir();
  mkdirSync(join(ws, 'experiments', '20260101000000_run', 'node_a'), { recursive: true });
  writeFileSync(join(ws, 'experiments', '20260101000000_run', 'node_a', 'node_report.json'), '{"schema_version":1,"node_id":"node_a"}');
  writeFileSync(join(ws, 'experiments', '20260101000000_run', 'node_file'), 'a file where a node directory belongs');
});
afterEach(() => removeDir(ws));

test('reads a report', () => {
  expect(readNodeReport(ws, '20260101000000_run', 'node_a')).toEqual({ schema_version: 1, node_id: 'node_a' });
});

test.each(['..', 'a..b', '../x', 'a/b', 'a\\b', '.x', '', 'a\u0000', '-x', 'x'.repeat(256)])('id %j is refused', (id) => {
  expect(() => readNodeReport(ws, id, 'node_a')).toThrow(InputError);
  expect(() => readNodeReport(ws, '20260101000000_run', id)).toThrow(InputError);
});

test('unknown run, unknown node, a node that is a file: not found', () => {
  expect(() => readNodeReport(ws, '20260101000000_other', 'node_a')).toThrow(NotFoundError);
  expect(() => readNodeReport(ws, '20260101000000_run', 'node_b')).toThrow(NotFoundError);
  expect(() => readNodeReport(ws, '20260101000000_run', 'node_file')).toThrow(NotFoundError);
  expect(() => readNodeReport(join(ws, 'nowhere'), '20260101000000_run', 'node_a')).toThrow(NotFoundError);
});

test.each([
  ['', 'is not valid JSON'],
  ['null', 'is not a JSON object'],
  ['"text"', 'is not a JSON object'],
  ['{"a":1} trailing', 'is not valid JSON'],
])('%j is an invalid record naming the file', (content, message) => {
  const file = join(ws, 'experiments', '20260101000000_run', 'node_a', 'node_report.json');
  writeFileSync(file, content);
  expect(() => readNodeReport(ws, '20260101000000_run', 'node_a')).toThrow(InvalidRecordError);
  expect(() => readNodeReport(ws, '20260101000000_run', 'node_a')).toThrow(`${file} ${message}`);
});
