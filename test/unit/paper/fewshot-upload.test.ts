import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConflictError, InputError, TooLargeError } from '../../../src/core/errors.ts';
import { decodePdf, MAX_EXCERPT_BYTES, MAX_PDF_BYTES, uploadExample } from '../../../src/paper/fewshot-upload.ts';
import { bundledRubrics, type LoadedRubric } from '../../../src/paper/rubrics.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const neurips = bundledRubrics().find((r) => r.id === 'neurips') as LoadedRubric;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

let root: string;
let dir: string;
beforeEach(() => {
  root = tempDir();
  dir = join(root, 'reviewer_rubrics', 'fewshot_examples', 'neurips');
});
afterEach(() => removeDir(root));

describe('uploadExample', () => {
  test('writes the record tagged with the rubric, the excerpt and the PDF', () => {
    const res = uploadExample(root, neurips, { id: 'my_paper', review: { overall: 6, summary: 'S' }, text: 'excerpt', pdf_base64: PDF.toString('base64') });
    expect(res).toEqual({ id: 'my_paper', files: ['my_paper.json', 'my_paper.pdf', 'my_paper.txt'] });
    expect(JSON.parse(readFileSync(join(dir, 'my_paper.json'), 'utf8'))).toEqual({ _source: 'rubric:neurips', overall: 6, summary: 'S' });
    expect(readFileSync(join(dir, 'my_paper.txt'), 'utf8')).toBe('excerpt');
    expect(readFileSync(join(dir, 'my_paper.pdf'))).toEqual(PDF);
    // no temp files left behind
    expect(readdirSync(dir).sort()).toEqual(['my_paper.json', 'my_paper.pdf', 'my_paper.txt']);
  });

  test('the id is cleaned: ../ and slashes cannot leave the examples directory', () => {
    expect(uploadExample(root, neurips, { id: '../../../x/y', review: { overall: 6 } }).id).toBe('xy');
    expect(readdirSync(dir)).toEqual(['xy.json']);
  });

  test('an existing example is not replaced (409)', () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'mine.txt'), 'my excerpt');
    expect(() => uploadExample(root, neurips, { id: 'mine', review: { overall: 6 } })).toThrow(ConflictError);
    expect(readdirSync(dir)).toEqual(['mine.txt']);
  });

  test.each([
    ['a score off its scale', { review: { overall: 11 } }, InputError, 'review.overall'],
    ['a PDF that is not one', { review: { overall: 6 }, text: 'x', pdf_base64: Buffer.from('<html>').toString('base64') }, InputError, 'does not decode to a PDF'],
    ['bad base64', { review: { overall: 6 }, pdf_base64: '%%%not base64' }, InputError, 'not valid base64'],
    ['an oversized excerpt', { review: { overall: 6 }, text: 'x'.repeat(MAX_EXCERPT_BYTES + 1) }, TooLargeError, 'text is larger than'],
  ])('%s: refused, nothing written', (_what, fields, type, message) => {
    const run = () => uploadExample(root, neurips, { id: 'p', ...fields });
    expect(run).toThrow(type);
    expect(run).toThrow(message);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('decodePdf', () => {
  test('plain base64, with line breaks, or as a data URL', () => {
    const b64 = PDF.toString('base64');
    expect(decodePdf(b64)).toEqual(PDF);
    expect(decodePdf(b64.replace(/(.{20})/g, '$1\n'))).toEqual(PDF);
    expect(decodePdf(`data:application/pdf;base64,${b64}`)).toEqual(PDF);
  });

  test('empty, or too large before decoding', () => {
    expect(() => decodePdf('')).toThrow('does not decode to a PDF');
    expect(() => decodePdf('A'.repeat(Math.ceil((MAX_PDF_BYTES * 4) / 3) + 8))).toThrow(TooLargeError);
  });
});
