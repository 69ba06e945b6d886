import { describe, expect, test } from 'bun:test';
import { isSecret, maskSecretValues, secretKeyPath, withoutSecretKeys } from '../../../../src/core/config/secrets.ts';

describe('secret keys and values', () => {
  test('the path of the first secret key at any depth', () => {
    expect(secretKeyPath({ a: [{ b: 1 }, { api_key: 'x' }] })).toBe('a[1].api_key');
    expect(secretKeyPath({ a: { b: 1 } })).toBeUndefined();
  });

  test('secret keys are dropped at any depth, other keys kept', () => {
    const value: Record<string, unknown> = { a: 1, token: 't', n: [{ password: 'p', ok: true }] };
    expect(withoutSecretKeys(value)).toEqual({ a: 1, n: [{ ok: true }] });
  });

  test('one rule for variables and settings.json keys: marked secret, named like a credential, or an unknown name ending in key', () => {
    for (const name of ['PROVIDERA_API_KEY', 'SVC_GUI_TOKEN', 'GITHUB_TOKEN', 'MY_PASSWORD', 'api_key', 'semantic_scholar_key', 'CUSTOM_KEY']) expect([name, isSecret(name)]).toEqual([name, true]);
    for (const name of ['SVC_MODEL', 'ssh_key', 'llm_model', 'PATH', 'LD_PRELOAD']) expect([name, isSecret(name)]).toEqual([name, false]);
  });

  test('values of secret variables go back to their reference; other values stay', () => {
    const env = { PROVIDERA_API_KEY: 'sk-live-123456', MY_TOKEN: 'tok-98765', SVC_MODEL: 'qwen3:4b', SHORT_SECRET: 'ab' };
    const masked = maskSecretValues({ llm: { api_key: 'sk-live-123456', header: 'Bearer tok-98765', model: 'qwen3:4b', tag: 'ab' } }, env);
    expect(masked).toEqual({ llm: { api_key: '${PROVIDERA_API_KEY}', header: 'Bearer ${MY_TOKEN}', model: 'qwen3:4b', tag: 'ab' } });
  });
});
