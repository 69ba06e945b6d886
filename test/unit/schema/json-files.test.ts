import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { schemaFiles } from '../../../src/schema/json-files.ts';

test.each(schemaFiles().map((f) => [f.path, f.text]))('%s matches its TypeBox schema (run `bun run schemas` after a change)', (path, text) => {
  expect(readFileSync(resolve(import.meta.dir, '../../..', path), 'utf8')).toBe(text);
});
