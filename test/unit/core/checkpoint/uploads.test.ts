import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deleteUpload, sanitizeUploadName, saveUploads } from '../../../../src/core/checkpoint/uploads.ts';
import { ConflictError, InputError, NotFoundError, TooLargeError } from '../../../../src/core/errors.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

describe('sanitizeUploadName', () => {
  test.each([
    ['data.csv', 'data.csv'],
    ['My Report (v2).pdf', 'My Report (v2).pdf'],
    ['../x', 'x'],
    ['..%2fx', '%2fx'],
    ['/etc/passwd', 'passwd'],
    ['C:\\fakepath\\scan.png', 'scan.png'],
    ['a/b\\c.txt', 'c.txt'],
    ['.bashrc', 'bashrc'],
    ['...hidden', 'hidden'],
    ['a..b', 'a.b'],
    ['a\u0000b.txt', 'ab.txt'],
    ['line\nbreak\r.txt', 'linebreak.txt'],
    ['del\u007f.txt', 'del.txt'],
    ['  padded.txt  ', 'padded.txt'],
    ['naïve résumé.txt', 'naïve résumé.txt'],
  ])('%j -> %j', (raw, name) => expect(sanitizeUploadName(raw)).toBe(name));

  test.each(['', '..', '.', '...', '/', 'dir/', '\u0000', '\u0001\u0002', ' . ', '../..'])('%j has nothing usable', (raw) => {
    expect(() => sanitizeUploadName(raw)).toThrow(InputError);
  });

  test('at most 200 characters and 200 bytes, keeping a short extension', () => {
    expect(sanitizeUploadName(`${'a'.repeat(250)}.csv`)).toBe(`${'a'.repeat(196)}.csv`);
    expect(sanitizeUploadName('b'.repeat(250))).toBe('b'.repeat(200));
    const wide = sanitizeUploadName(`${'é'.repeat(150)}.txt`);
    expect(Buffer.byteLength(wide)).toBeLessThanOrEqual(200);
    expect(wide).toBe(`${'é'.repeat(98)}.txt`);
    expect(sanitizeUploadName(`x.${'e'.repeat(300)}`)).toBe(`x.${'e'.repeat(198)}`);
  });
});

describe('saveUploads and deleteUpload', () => {
  let ck: string;
  beforeEach(() => {
    ck = tempDir();
  });
  afterEach(() => removeDir(ck));
  const file = (name: string, content: string) => ({ name, data: new Blob([content]) });

  test('writes each file under uploads/ and answers name, path and size', async () => {
    const saved = await saveUploads(ck, [file('a.txt', 'hello'), file('../b.txt', 'bee')], 100);
    expect(saved).toEqual([
      { name: 'a.txt', path: 'uploads/a.txt', size: 5 },
      { name: 'b.txt', path: 'uploads/b.txt', size: 3 },
    ]);
    expect(readFileSync(join(ck, 'uploads', 'b.txt'), 'utf8')).toBe('bee');
  });

  test('two files that clean to one name are refused, and nothing is written', async () => {
    await expect(saveUploads(ck, [file('x/a.txt', 'first'), file('y/a.txt', 'second')], 100)).rejects.toThrow('two files in the upload are named a.txt');
    expect(existsSync(join(ck, 'uploads', 'a.txt'))).toBe(false);
  });

  test('a file over the cap refuses the whole request before anything is written', async () => {
    mkdirSync(join(ck, 'uploads'));
    writeFileSync(join(ck, 'uploads', 'a.txt'), 'original');
    await expect(saveUploads(ck, [file('a.txt', 'replaced'), file('big.bin', '0123456789A')], 10)).rejects.toThrow(TooLargeError);
    expect(readdirSync(join(ck, 'uploads'))).toEqual(['a.txt']);
    expect(readFileSync(join(ck, 'uploads', 'a.txt'), 'utf8')).toBe('original');
    // exactly at the cap is fine
    expect(await saveUploads(ck, [file('edge.bin', '0123456789')], 10)).toEqual([{ name: 'edge.bin', path: 'uploads/edge.bin', size: 10 }]);
  });

  test('no files, a bad name among good ones, uploads/ as a file', async () => {
    await expect(saveUploads(ck, [], 10)).rejects.toThrow(InputError);
    await expect(saveUploads(ck, [file('ok.txt', 'x'), file('..', 'y')], 10)).rejects.toThrow(InputError);
    expect(existsSync(join(ck, 'uploads'))).toBe(false);
    writeFileSync(join(ck, 'uploads'), 'not a dir');
    await expect(saveUploads(ck, [file('ok.txt', 'x')], 10)).rejects.toThrow(ConflictError);
  });

  test('delete takes only names an upload could have produced', async () => {
    await saveUploads(ck, [file('keep.txt', 'k'), file('gone.txt', 'g')], 10);
    writeFileSync(join(ck, 'x'), 'outside uploads');
    expect(deleteUpload(ck, 'gone.txt')).toEqual({ name: 'gone.txt', path: 'uploads/gone.txt' });
    expect(() => deleteUpload(ck, 'gone.txt')).toThrow(NotFoundError);
    for (const bad of ['../x', '..%2fx', '/etc/passwd', 'a\u0000b', '.keep.txt', ' keep.txt', '', '..']) {
      expect(() => deleteUpload(ck, bad)).toThrow(InputError);
    }
    expect(readdirSync(join(ck, 'uploads'))).toEqual(['keep.txt']);
    expect(existsSync(join(ck, 'x'))).toBe(true);
  });
});
