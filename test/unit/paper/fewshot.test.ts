import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConflictError, InputError, NotFoundError } from '../../../src/core/errors.ts';
import { deleteExample, examplesDir, listExamples } from '../../../src/paper/fewshot.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let root: string;
let dir: string;
beforeEach(() => {
  root = tempDir();
  dir = join(root, 'reviewer_rubrics', 'fewshot_examples', 'neurips');
  mkdirSync(dir, { recursive: true });
});
afterEach(() => removeDir(root));

describe('listExamples', () => {
  test('the reference fixture: attention.json with its excerpt; README.md is not an example', () => {
    writeFileSync(join(dir, 'attention.json'), '{"_source": "test fixture", "soundness": 4, "overall": 8, "decision": "accept"}');
    writeFileSync(join(dir, 'attention.txt'), 'Attention Is All You Need');
    writeFileSync(join(dir, 'README.md'), '# examples\n');
    expect(listExamples(root, 'neurips')).toEqual({
      examples: [{ id: 'attention', record: { _source: 'test fixture', soundness: 4, overall: 8, decision: 'accept' }, has_text: true, has_pdf: false, source: 'test fixture' }],
      problems: [],
    });
  });

  test('no directory yet: no examples', () => {
    expect(listExamples(root, 'iclr')).toEqual({ examples: [], problems: [] });
  });

  test('a pdf is reported, a record without _source has source null, examples sorted by id', () => {
    writeFileSync(join(dir, 'b.json'), '{"overall": 3}');
    writeFileSync(join(dir, 'a.json'), '{"overall": 5}');
    writeFileSync(join(dir, 'a.pdf'), '%PDF-1.4\n');
    const { examples } = listExamples(root, 'neurips');
    expect(examples.map((e) => [e.id, e.has_text, e.has_pdf, e.source])).toEqual([
      ['a', false, true, null],
      ['b', false, false, null],
    ]);
  });

  test('what is not an example is left out; a .json that is not a record object is a problem', () => {
    writeFileSync(join(dir, 'notes.txt'), 'notes');
    writeFileSync(join(dir, 'draft.v2.json'), '{"overall": 1}');
    mkdirSync(join(dir, 'sub.json'));
    writeFileSync(join(dir, 'broken.json'), '{"overall": ');
    writeFileSync(join(dir, 'list.json'), '[1, 2]');
    const { examples, problems } = listExamples(root, 'neurips');
    expect(examples).toEqual([]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toStartWith(`${join(dir, 'broken.json')}: `);
    expect(problems[1]).toBe(`${join(dir, 'list.json')}: not a JSON object`);
  });

  test('a symlinked record is not read: it could show any file of the machine', () => {
    writeFileSync(join(root, 'secret.json'), '{"token": "x"}');
    symlinkSync(join(root, 'secret.json'), join(dir, 'leak.json'));
    expect(listExamples(root, 'neurips').examples).toEqual([]);
  });

  test('an examples directory that is a symlink out of the rubric directory is refused', () => {
    mkdirSync(join(root, 'elsewhere'));
    symlinkSync(join(root, 'elsewhere'), join(root, 'reviewer_rubrics', 'fewshot_examples', 'iclr'));
    expect(() => examplesDir(root, 'iclr')).toThrow(InputError);
  });

  test('an examples path that is a file is a conflict', () => {
    writeFileSync(join(root, 'reviewer_rubrics', 'fewshot_examples', 'iclr'), 'x');
    expect(() => listExamples(root, 'iclr')).toThrow(ConflictError);
  });
});

describe('deleteExample', () => {
  test('removes every extension of the example and nothing else', () => {
    for (const n of ['attention.json', 'attention.txt', 'attention.pdf', 'attention.notes.md', 'attention2.json', 'other.json', 'README.md']) writeFileSync(join(dir, n), '{}');
    expect(deleteExample(root, 'neurips', 'attention')).toEqual({ id: 'attention', deleted: ['attention.json', 'attention.notes.md', 'attention.pdf', 'attention.txt'] });
    expect(readdirSync(dir).sort()).toEqual(['README.md', 'attention2.json', 'other.json']);
  });

  test('a name with ../ and slashes is cleaned and stays inside the directory', () => {
    writeFileSync(join(root, 'reviewer_rubrics', 'fewshot_examples', 'keep.json'), '{}');
    writeFileSync(join(dir, 'keep.json'), '{}');
    expect(deleteExample(root, 'neurips', '../keep').deleted).toEqual(['keep.json']);
    expect(existsSync(join(root, 'reviewer_rubrics', 'fewshot_examples', 'keep.json'))).toBe(true);
  });

  test('nothing matched: 404, and a name with nothing left: 400', () => {
    writeFileSync(join(dir, 'attention.json'), '{}');
    expect(() => deleteExample(root, 'neurips', 'attn')).toThrow(NotFoundError);
    expect(() => deleteExample(root, 'iclr', 'attention')).toThrow(NotFoundError);
    expect(() => deleteExample(root, 'neurips', '../')).toThrow(InputError);
    expect(readFileSync(join(dir, 'attention.json'), 'utf8')).toBe('{}');
  });

  test('a directory named like the example is left alone', () => {
    mkdirSync(join(dir, 'attention.d'));
    expect(() => deleteExample(root, 'neurips', 'attention')).toThrow(NotFoundError);
    expect(existsSync(join(dir, 'attention.d'))).toBe(true);
  });
});
