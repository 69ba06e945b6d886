import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDotenvChain, parseDotenv, updateDotenv } from '../../../../src/core/config/dotenv.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

describe('parseDotenv', () => {
  test('reads KEY=VALUE, strips quotes, skips comments and blanks', () => {
    const env = parseDotenv('# comment\n\nA=1\nB="two words"\nC=\'x=y\'\nexport D=4\nE=plain # trailing\nF=\n', 'f');
    expect(Object.fromEntries(env)).toEqual({ A: '1', B: 'two words', C: 'x=y', D: '4', E: 'plain', F: '' });
  });

  test('a line without = is an error naming the file and line', () => {
    expect(() => parseDotenv('A=1\nJUST_A_WORD\n', '/p/.env')).toThrow('/p/.env:2: the line is not KEY=VALUE');
  });

  test('a pasted secret on a line of its own is not echoed in the error', () => {
    let message = '';
    try {
      parseDotenv('sk-proj-SECRETSECRET1234567890\n', '/p/.env');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe('/p/.env:1: the line is not KEY=VALUE');
    expect(() => parseDotenv('PROVIDERA_API_KEY: sk-SECRET=\n', '/p/.env')).not.toThrow(/SECRET/);
    expect(() => parseDotenv('PROVIDERA_API_KEY: sk-SECRET=\n', '/p/.env')).toThrow('/p/.env:1: the name before = is not a variable name');
  });

  test('a quoted value may be followed by a comment', () => {
    expect(Object.fromEntries(parseDotenv(`A='quoted' # note\nB="x # not a comment"\n`, 'f'))).toEqual({ A: 'quoted', B: 'x # not a comment' });
  });

  test('an invalid name is an error', () => {
    expect(() => parseDotenv('1A=x', 'f')).toThrow('f:1: the name before = is not a variable name');
  });
});

describe('loadDotenvChain', () => {
  test('an earlier directory wins; missing files are skipped', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((n) => join(dir, n));
    for (const d of [a, b, c]) mkdirSync(d as string);
    writeFileSync(join(a as string, '.env'), 'K=from-a\n');
    writeFileSync(join(b as string, '.env'), 'K=from-b\nONLY_B=1\n');
    const env = loadDotenvChain([a as string, c as string, b as string]);
    expect(env.get('K')).toEqual({ value: 'from-a', file: join(a as string, '.env') });
    expect(env.get('ONLY_B')?.value).toBe('1');
  });
});

describe('updateDotenv', () => {
  test('replaces one key, keeps comments and other keys, mode 600', () => {
    const f = join(dir, '.env');
    writeFileSync(f, '# keys\nA=1\nPROVIDERA_API_KEY=old\nB=2\n');
    updateDotenv(f, { PROVIDERA_API_KEY: 'sk new', C: '3' });
    expect(readFileSync(f, 'utf8')).toBe('# keys\nA=1\nPROVIDERA_API_KEY="sk new"\nB=2\nC=3\n');
    expect(statSync(f).mode & 0o777).toBe(0o600);
  });

  test('a key written twice ends up once, with the new value', () => {
    const f = join(dir, '.env');
    writeFileSync(f, 'PROVIDERA_API_KEY=old1\nX=1\nPROVIDERA_API_KEY=old2\n');
    updateDotenv(f, { PROVIDERA_API_KEY: 'new' });
    expect(readFileSync(f, 'utf8')).toBe('PROVIDERA_API_KEY=new\nX=1\n');
    expect(parseDotenv(readFileSync(f, 'utf8'), f).get('PROVIDERA_API_KEY')).toBe('new');
  });

  test('refuses to rewrite a malformed file and leaves it as it was', () => {
    const f = join(dir, '.env');
    writeFileSync(f, 'A=1\nbroken line\n');
    expect(() => updateDotenv(f, { A: '2' })).toThrow(/is not KEY=VALUE/);
    expect(readFileSync(f, 'utf8')).toBe('A=1\nbroken line\n');
  });

  test('a value with a newline is refused', () => {
    expect(() => updateDotenv(join(dir, '.env'), { A: 'x\ny' })).toThrow(/span lines/);
  });
});
