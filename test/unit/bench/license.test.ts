import { describe, expect, test } from 'bun:test';
import { classifyLicense, normalizeLicense } from '../../../src/bench/license.ts';

const FREE = ['cc0', 'cc0 1.0', 'cc-0', 'public domain', 'cc by', 'cc by 4.0', 'cc-by', 'cc-by-4.0', 'cc by-sa', 'cc by-sa 4.0', 'cc-by-sa', 'cc-by-sa-4.0', 'mit', 'apache-2.0', 'apache 2.0', 'bsd-3-clause', 'bsd-2-clause'];
const NON_COMMERCIAL = ['cc by-nc', 'cc by-nc 4.0', 'cc-by-nc', 'cc-by-nc-4.0'];

describe('classifyLicense', () => {
  test.each(FREE)('%s is permissive, modifiable, redistributable and usable', (name) => {
    const a = classifyLicense(name);
    expect(a).toMatchObject({ license: name, permissive: true, modifiable: true, redistributable: true, non_commercial: false, usable: true });
    expect(a.note).toContain('usable');
  });

  test.each(NON_COMMERCIAL)('%s is permissive but non-commercial: not usable, and the note says why', (name) => {
    const a = classifyLicense(name);
    expect(a).toEqual({ license: name, permissive: true, modifiable: false, redistributable: false, non_commercial: true, usable: false, note: expect.stringContaining('non-commercial') });
    expect(a.note).toContain('not usable');
  });

  test('arXiv non-exclusive may be redistributed, not modified: usable', () => {
    expect(classifyLicense('arXiv non-exclusive')).toEqual({
      license: 'arxiv non-exclusive',
      permissive: true,
      modifiable: false,
      redistributable: true,
      non_commercial: false,
      usable: true,
      note: expect.stringContaining('not modification'),
    });
  });

  test('the match is exact on the stripped, lower-cased name', () => {
    expect(classifyLicense('  CC-BY-4.0 \n').usable).toBe(true);
    expect(classifyLicense('MIT').license).toBe('mit');
    expect(classifyLicense('\tCC BY-NC\t')).toMatchObject({ license: 'cc by-nc', non_commercial: true, usable: false });
    // near spellings are not guessed at
    for (const near of ['cc-by 4.0', 'mit license', 'apache2', 'cc by-nc-sa 4.0', 'gpl-3.0']) {
      expect(classifyLicense(near)).toMatchObject({ license: near, permissive: false, modifiable: false, redistributable: false, non_commercial: false, usable: false });
      expect(classifyLicense(near).note).toContain('review');
    }
  });

  test.each([undefined, null, '', '   ', 'unknown', 'Unknown'])('%p is unknown: all false, to be reviewed by hand', (raw) => {
    expect(classifyLicense(raw)).toEqual({ license: 'unknown', permissive: false, modifiable: false, redistributable: false, non_commercial: false, usable: false, note: 'license unknown — manual review required' });
  });
});

test("every assessment has the contract's keys (non_commercial besides)", () => {
  for (const raw of ['', 'MIT', 'cc by-nc', 'arXiv non-exclusive', 'GPL-3.0']) {
    expect(Object.keys(classifyLicense(raw)).sort()).toEqual(['license', 'modifiable', 'non_commercial', 'note', 'permissive', 'redistributable', 'usable']);
  }
});

test('normalizeLicense keeps the classified name, unknown for none', () => {
  expect(normalizeLicense(' CC BY 4.0 ')).toBe('cc by 4.0');
  expect(normalizeLicense('')).toBe('unknown');
  expect(normalizeLicense(undefined)).toBe('unknown');
});
