import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, NotFoundError } from '../../../src/core/errors.ts';
import { readFile } from '../../../src/coding/read-file.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { callTool } from '../skills/coding/tool-call.ts';

let work: string;
beforeEach(() => {
  work = tempDir();
});
afterEach(() => removeDir(work));

const env = () => ({ PATH: process.env.PATH, SVC_WORK_DIR: work });

describe('read_file', () => {
  test('pages through a file to the end: the pages join to the file, next_offset is null on the last', async () => {
    const text = Array.from({ length: 1500 }, (_, i) => `line ${i} ${'x'.repeat(i % 17)}`).join('\n');
    writeFileSync(join(work, 'log.txt'), text);
    const pages: string[] = [];
    let offset: number | null = 0;
    let calls = 0;
    while (offset !== null) {
      const r: { content: string; next_offset: number | null; total_lines: number; total_chars: number } = await callTool(readFile, { path: 'log.txt', offset }, env());
      expect(r.total_lines).toBe(1500);
      expect(r.total_chars).toBe(text.length);
      expect(r.content.length).toBeLessThanOrEqual(8000);
      pages.push(r.content);
      offset = r.next_offset;
      calls++;
    }
    expect(pages.join('')).toBe(text);
    expect(calls).toBe(Math.ceil(text.length / 8000));
  });

  test('limit sets the page size; a last line without newline counts as a line', async () => {
    writeFileSync(join(work, 'a.txt'), 'one\ntwo\nthree');
    expect(await callTool(readFile, { path: 'a.txt', limit: 5 }, env())).toEqual({ content: 'one\nt', next_offset: 5, total_lines: 3, total_chars: 13 });
    expect(await callTool(readFile, { path: 'a.txt', offset: 10, limit: 5 }, env())).toEqual({ content: 'ree', next_offset: null, total_lines: 3, total_chars: 13 });
  });

  test('an empty file is one empty page', async () => {
    writeFileSync(join(work, 'empty.txt'), '');
    expect(await callTool(readFile, { path: 'empty.txt' }, env())).toEqual({ content: '', next_offset: null, total_lines: 0, total_chars: 0 });
  });

  test('a page never ends inside a character outside the basic plane', async () => {
    writeFileSync(join(work, 'emoji.txt'), 'ab😀cd');
    const first = await callTool(readFile, { path: 'emoji.txt', limit: 3 }, env());
    expect(first.content).toBe('ab😀');
    const rest = await callTool(readFile, { path: 'emoji.txt', offset: first.next_offset }, env());
    expect(rest.content).toBe('cd');
  });

  test('a binary file is refused with a clear error', async () => {
    writeFileSync(join(work, 'model.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02]));
    const err = await callTool(readFile, { path: 'model.bin' }, env()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toBe("'model.bin' is a binary file (5 bytes); read_file reads text");
  });

  test('a missing file says so; a directory and an offset past the end are refused', async () => {
    const missing = await callTool(readFile, { path: 'gone.txt' }, env()).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as Error).message).toBe(`no file 'gone.txt' in ${work}`);
    mkdirSync(join(work, 'dir'));
    await expect(callTool(readFile, { path: 'dir' }, env())).rejects.toThrow("path 'dir' is not a regular file");
    writeFileSync(join(work, 's.txt'), 'short');
    await expect(callTool(readFile, { path: 's.txt', offset: 6 }, env())).rejects.toThrow("offset 6 is past the end of 's.txt' (5 characters)");
  });

  test('the schema refuses a negative offset and a zero limit', async () => {
    writeFileSync(join(work, 's.txt'), 'short');
    await expect(callTool(readFile, { path: 's.txt', offset: -1 }, env())).rejects.toThrow(/offset/);
    await expect(callTool(readFile, { path: 's.txt', limit: 0 }, env())).rejects.toThrow(/limit/);
  });
});
