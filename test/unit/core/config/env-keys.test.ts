import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDotenvChain } from '../../../../src/core/config/dotenv.ts';
import { listEnvKeys, saveEnvKeys } from '../../../../src/core/config/env-keys.ts';
import { ENV_VARS } from '../../../../src/core/config/env-vars.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

const envFile = () => join(dir, '.env');

describe('listing variables', () => {
  test('every known variable and every other name of the .env files, with where it is set; never a value', () => {
    writeFileSync(envFile(), '# keys\nPROVIDERA_API_KEY=dotenv-secret-A1\nMY_SERVICE_TOKEN=dotenv-secret-B2\nEMPTY_ONE=\n');
    const list = listEnvKeys({ PROVIDERB_API_KEY: 'process-secret-C3', SVC_MODEL: '' }, loadDotenvChain([dir]));
    expect(list.map((e) => e.name)).toEqual([...ENV_VARS.map((e) => e.name), 'EMPTY_ONE', 'MY_SERVICE_TOKEN']);
    const by = Object.fromEntries(list.map((e) => [e.name, e]));
    expect(by.PROVIDERA_API_KEY).toEqual({ name: 'PROVIDERA_API_KEY', meaning: 'hosted provider A key', secret: true, set: true, source: envFile() });
    expect(by.PROVIDERB_API_KEY).toMatchObject({ secret: true, set: true, source: 'environment' });
    expect(by.MY_SERVICE_TOKEN).toEqual({ name: 'MY_SERVICE_TOKEN', meaning: '', secret: true, set: true, source: envFile() });
    expect(by.EMPTY_ONE).toMatchObject({ secret: false, set: false, source: null });
    expect(by.SVC_MODEL).toMatchObject({ secret: false, set: false, source: null });
    expect(JSON.stringify(list)).not.toMatch(/secret-[ABC]\d/);
  });
});

describe('saving variables', () => {
  const original = '# provider keys\nexport SVC_MODEL=old\n\n# trailing comment\nOTHER="keep me"\n';

  test('sets keys, keeps every other line and comment, mode 600', () => {
    writeFileSync(envFile(), original);
    expect(saveEnvKeys(envFile(), { SVC_MODEL: 'new', PROVIDERA_API_KEY: 'sk value' })).toEqual(['SVC_MODEL', 'PROVIDERA_API_KEY']);
    expect(readFileSync(envFile(), 'utf8')).toBe('# provider keys\nSVC_MODEL=new\n\n# trailing comment\nOTHER="keep me"\nPROVIDERA_API_KEY="sk value"\n');
    expect(statSync(envFile()).mode & 0o777).toBe(0o600);
  });

  test('also takes {keys: {...}}', () => {
    expect(saveEnvKeys(envFile(), { keys: { A_TOKEN: '1' } })).toEqual(['A_TOKEN']);
    expect(readFileSync(envFile(), 'utf8')).toBe('A_TOKEN=1\n');
  });

  test.each(['PERL5OPT', 'LD_PRELOAD', 'PATH', 'NODE_OPTIONS', 'BASH_ENV'])('%s, which changes how programs run, is refused', (name) => {
    writeFileSync(envFile(), original);
    expect(() => saveEnvKeys(envFile(), { [name]: 'x' })).toThrow(`${name} is not a variable svc reads or a credential`);
    expect(readFileSync(envFile(), 'utf8')).toBe(original);
  });

  test.each([
    [{ 'lower-case': 'v' }, "'lower-case' is not a variable name"],
    [{ '1ABC': 'v' }, "'1ABC' is not a variable name"],
    [{ svc_model: 'v' }, "'svc_model' is not a variable name"],
    [{ SVC_MODEL: 'ok', 'BAD NAME': 'v' }, "'BAD NAME' is not a variable name"],
    [{ API_KEY: 'line1\nline2' }, 'the value of API_KEY spans lines'],
    [{ API_KEY: 'line1\rline2' }, 'the value of API_KEY spans lines'],
    [{ API_KEY: 5 }, 'the value of API_KEY must be a string'],
    [{ SVC_MODEL: 'both \' and "' }, 'cannot hold both kinds of quote'],
    [{}, 'nothing to save'],
    [['KEY'], 'the body must be a JSON object'],
  ])('%j is refused, the file unchanged byte for byte, no value in the message', (body, message) => {
    writeFileSync(envFile(), original);
    let err: Error | undefined;
    try {
      saveEnvKeys(envFile(), body);
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).toContain(message);
    expect(err?.message).not.toContain('line2');
    expect(readFileSync(envFile(), 'utf8')).toBe(original);
  });

  test('a refused body creates no file', () => {
    expect(() => saveEnvKeys(envFile(), { SVC_MODEL: 'a\nb' })).toThrow();
    expect(existsSync(envFile())).toBe(false);
  });
});
