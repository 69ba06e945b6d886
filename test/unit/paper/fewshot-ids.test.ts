import { describe, expect, test } from 'bun:test';
import { InputError } from '../../../src/core/errors.ts';
import { cleanId, MAX_ID_LENGTH } from '../../../src/paper/fewshot-ids.ts';

describe('cleanId', () => {
  test.each([
    ['neurips', 'neurips'],
    ['usenix_security', 'usenix_security'],
    ['my-lab_2', 'my-lab_2'],
    ['../neurips', 'neurips'],
    ['../../../etc/passwd', 'etcpasswd'],
    ['..././neurips', 'neurips'],
    ['....//x', 'x'],
    ['a/b\\c', 'abc'],
    ['..\\..\\x', 'x'],
    ['attention.json', 'attentionjson'],
    ['  spaced name ', 'spacedname'],
    ['%2e%2e%2f', '2e2e2f'],
    ['héllo', 'hllo'],
  ])('%p -> %p', (raw, want) => {
    expect(cleanId(raw, 'example')).toBe(want);
  });

  test.each(['', '../', '/', '..', '...', '../../', '. /'])('%p is empty once cleaned: 400', (raw) => {
    expect(() => cleanId(raw, 'rubric')).toThrow(InputError);
    expect(() => cleanId(raw, 'rubric')).toThrow('is empty once reduced to letters, digits, _ and -');
  });

  test('a very long id is refused', () => {
    expect(cleanId('a'.repeat(MAX_ID_LENGTH), 'example')).toHaveLength(MAX_ID_LENGTH);
    expect(() => cleanId('a'.repeat(MAX_ID_LENGTH + 1), 'example')).toThrow(InputError);
  });
});
