import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeCode } from '../../../src/coding/write-code.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { callTool } from '../skills/coding/tool-call.ts';

let base: string;
let work: string;
beforeEach(() => {
  base = tempDir();
  work = join(base, 'work');
});
afterEach(() => removeDir(base));

const env = () => ({ PATH: process.env.PATH, SVC_WORK_DIR: work });

describe('write_code', () => {
  test('writes the file below the work directory, creating both, and counts bytes not characters', async () => {
    const r = await callTool(writeCode, { filename: 'src/model.py', code: 'print("é")\n' }, env());
    expect(r).toEqual({ path: join(work, 'src', 'model.py'), bytes: 12 });
    expect(readFileSync(r.path, 'utf8')).toBe('print("é")\n');
    expect(statSync(r.path).mode & 0o111).toBe(0);
  });

  test('replaces a file whole and leaves no temp file', async () => {
    await callTool(writeCode, { filename: 'a.py', code: 'x = 1\n'.repeat(100) }, env());
    await callTool(writeCode, { filename: 'a.py', code: 'y = 2\n' }, env());
    expect(readFileSync(join(work, 'a.py'), 'utf8')).toBe('y = 2\n');
    expect(readdirSync(work)).toEqual(['a.py']);
  });

  test('a new script with #! is executable; a replaced file keeps its permissions', async () => {
    const r = await callTool(writeCode, { filename: 'run.sh', code: '#!/bin/sh\necho hi\n' }, env());
    expect(statSync(r.path).mode & 0o100).toBe(0o100);
    chmodSync(r.path, 0o600);
    await callTool(writeCode, { filename: 'run.sh', code: '#!/bin/sh\necho again\n' }, env());
    expect(statSync(r.path).mode & 0o777).toBe(0o600);
  });

  test('the work_dir argument wins over SVC_WORK_DIR', async () => {
    const other = join(base, 'other');
    const r = await callTool(writeCode, { filename: 'f.txt', code: 'x', work_dir: other }, env());
    expect(r.path).toBe(join(other, 'f.txt'));
  });

  test('an empty file name and a directory are refused, naming filename', async () => {
    await expect(callTool(writeCode, { filename: ' ', code: 'x' }, env())).rejects.toThrow('filename is empty');
    mkdirSync(join(work, 'pkg'), { recursive: true });
    await expect(callTool(writeCode, { filename: 'pkg', code: 'x' }, env())).rejects.toThrow(/filename 'pkg' is a directory/);
    expect(readdirSync(join(work, 'pkg'))).toEqual([]);
  });
});
