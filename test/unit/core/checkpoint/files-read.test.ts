import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeBytes, MAX_BATCH_BYTES, rawFile, readFileBatch, readFileContent } from '../../../../src/core/checkpoint/files-read.ts';
import { InputError, NotFoundError, TooLargeError } from '../../../../src/core/errors.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let ws: string;
let ck: string;
beforeEach(() => {
  ws = tempDir();
  ck = join(ws, 'checkpoints', '20260101000000_TestExp');
  mkdirSync(join(ck, 'code'), { recursive: true });
  mkdirSync(join(ck, 'paper', 'figures'), { recursive: true });
  writeFileSync(join(ck, 'code', 'main.py'), "print('hello')\n");
  writeFileSync(join(ck, 'model.pkl'), new Uint8Array([0x80, 0x04, 0x95, ...new Array(100).fill(0)]));
  writeFileSync(join(ck, 'paper', 'figures', 'fig_01.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, ...new Array(50).fill(0)]));
  writeFileSync(join(ck, '.env'), 'OPENAI_API_KEY=sk-secret\n');
  writeFileSync(join(ws, 'outside.txt'), 'outside');
  symlinkSync(join(ws, 'outside.txt'), join(ck, 'out-link.txt'));
});
afterEach(() => removeDir(ws));

describe('readFileContent', () => {
  test('text as UTF-8, binary as base64, path normalised', () => {
    expect(readFileContent(ck, './code/../code/main.py')).toEqual({ path: 'code/main.py', size: 15, encoding: 'utf8', content: "print('hello')\n" });
    const pkl = readFileContent(ck, 'model.pkl');
    expect(pkl.encoding).toBe('base64');
    expect(Buffer.from(pkl.content, 'base64')).toEqual(Buffer.from([0x80, 0x04, 0x95, ...new Array(100).fill(0)]));
  });

  test('invalid UTF-8 anywhere in the file makes it base64, so text is never silently altered', () => {
    const bytes = Buffer.concat([Buffer.from('a'.repeat(20000)), Buffer.from([0xff])]);
    writeFileSync(join(ck, 'late.txt'), bytes);
    const got = readFileContent(ck, 'late.txt');
    expect(got.encoding).toBe('base64');
    expect(Buffer.from(got.content, 'base64')).toEqual(bytes);
  });

  test('a byte-order mark is kept', () => {
    expect(encodeBytes(Buffer.from([0xef, 0xbb, 0xbf, 0x41]))).toEqual({ encoding: 'utf8', content: '\ufeffA' });
  });

  test('over the limit: 413 naming the size, the limit and the hint', () => {
    let err: unknown;
    try {
      readFileContent(ck, 'model.pkl', { limit: 100, tooLargeHint: 'use file/raw' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TooLargeError);
    expect((err as TooLargeError).message).toBe("'model.pkl' is 103 bytes, over the 100 bytes limit for inline content");
    expect((err as TooLargeError).hint).toBe('use file/raw');
  });

  test('missing, directory, traversal, absolute, link out, secrets', () => {
    expect(() => readFileContent(ck, 'nope.txt')).toThrow(NotFoundError);
    expect(() => readFileContent(ck, 'code')).toThrow("'code' is a directory");
    expect(() => readFileContent(ck, '../../outside.txt')).toThrow(InputError);
    expect(() => readFileContent(ck, join(ck, 'code', 'main.py'))).toThrow('is absolute');
    expect(() => readFileContent(ck, 'out-link.txt')).toThrow('is outside');
    expect(() => readFileContent(ck, '.env')).toThrow('holds secrets');
    expect(() => readFileContent(ck, '')).toThrow('no path given');
    expect(() => readFileContent(ck, 'a\0b')).toThrow('NUL');
  });
});

describe('readFileBatch', () => {
  test('per-file errors sit beside the contents', () => {
    const got = readFileBatch(ck, ['code/main.py', 'model.pkl', 'nope.txt', 'code', '.env', '__proto__']);
    expect(got['code/main.py']).toEqual({ size: 15, encoding: 'utf8', content: "print('hello')\n" });
    expect(got['model.pkl']).toMatchObject({ size: 103, encoding: 'base64' });
    expect(got['nope.txt']).toEqual({ error: "no file 'nope.txt' in this checkpoint" });
    expect((got.code as { error: string }).error).toContain('is a directory');
    expect((got['.env'] as { error: string }).error).toContain('holds secrets');
    expect(Object.hasOwn(got, '__proto__')).toBe(true);
    expect(Object.keys(got)).toHaveLength(6);
  });

  test('a file over the per-file limit is an entry error', () => {
    const got = readFileBatch(ck, ['model.pkl', 'code/main.py'], { limit: 50 });
    expect((got['model.pkl'] as { error: string }).error).toContain('over the 50 bytes limit');
    expect(got['code/main.py']).toMatchObject({ encoding: 'utf8' });
  });

  test('the total is capped: files past it are entry errors', () => {
    const big = Buffer.alloc(9 * 1024 * 1024, 0x61);
    for (const n of ['a', 'b', 'c']) writeFileSync(join(ck, `${n}.txt`), big);
    const got = readFileBatch(ck, ['a.txt', 'b.txt', 'c.txt', 'code/main.py']);
    expect(got['a.txt']).toMatchObject({ size: big.length });
    expect(got['b.txt']).toMatchObject({ size: big.length });
    expect((got['c.txt'] as { error: string }).error).toContain(`of its ${MAX_BATCH_BYTES / 1024 / 1024}.0 MB (${MAX_BATCH_BYTES} bytes) total`);
    expect(got['code/main.py']).toMatchObject({ size: 15 });
  });

  test('one path leaving the root refuses the whole request; empty and too many are refused', () => {
    expect(() => readFileBatch(ck, ['code/main.py', '../outside.txt'])).toThrow(InputError);
    expect(() => readFileBatch(ck, ['code/main.py', 'out-link.txt'])).toThrow(InputError);
    expect(() => readFileBatch(ck, [])).toThrow('no paths given');
    expect(() => readFileBatch(ck, Array.from({ length: 51 }, (_, i) => `f${i}`))).toThrow('51 paths asked for; at most 50');
  });
});

describe('rawFile', () => {
  test('headers by extension; SVG sandboxed', () => {
    writeFileSync(join(ck, 'p.pdf'), '%PDF');
    writeFileSync(join(ck, 'f.svg'), '<svg/>');
    writeFileSync(join(ck, 'paper.tex'), 'x');
    writeFileSync(join(ck, 'page.html'), '<script>');
    expect(rawFile(ck, 'p.pdf').headers['content-type']).toBe('application/pdf');
    expect(rawFile(ck, 'paper/figures/fig_01.png')).toMatchObject({ size: 54, headers: { 'content-type': 'image/png' } });
    expect(rawFile(ck, 'f.svg').headers).toMatchObject({ 'content-type': 'image/svg+xml', 'content-security-policy': 'sandbox' });
    expect(rawFile(ck, 'paper.tex').headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(rawFile(ck, 'page.html').headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(rawFile(ck, 'model.pkl').headers['content-type']).toBe('application/octet-stream');
    expect(rawFile(ck, 'p.pdf').headers['content-security-policy']).toBeUndefined();
  });

  test('the same path rules as inline reads', () => {
    expect(() => rawFile(ck, '../outside.txt')).toThrow(InputError);
    expect(() => rawFile(ck, 'out-link.txt')).toThrow(InputError);
    expect(() => rawFile(ck, 'code')).toThrow(InputError);
    expect(() => rawFile(ck, 'nope')).toThrow(NotFoundError);
    expect(() => rawFile(ck, '.env')).toThrow(InputError);
  });
});
