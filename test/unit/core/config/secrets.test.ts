import { describe, expect, test } from 'bun:test';
import { maskSecretValues, secretKeyPath, withoutSecretKeys } from '../../../../src/core/config/secrets.ts';
import { isSecretKey } from '../../../../src/core/config/saved-settings.ts';

describe('secret keys and values', () => {
  test('the path of the first secret key at any depth', () => {
    expect(secretKeyPath({ a: [{ b: 1 }, { api_key: 'x' }] }, isSecretKey)).toBe('a[1].api_key');
    expect(secretKeyPath({ a: { b: 1 } }, isSecretKey)).toBeUndefined();
  });

  test('secret keys are dropped at any depth, other keys kept', () => {
    const value: Record<string, unknown> = { a: 1, token: 't', n: [{ password: 'p', ok: true }] };
    expect(withoutSecretKeys(value, isSecretKey)).toEqual({ a: 1, n: [{ ok: true }] });
  });

  test('values of secret variables go back to their reference; other values stay', () => {
    const env = { PROVIDERA_API_KEY: 'sk-live-123456', MY_TOKEN: 'tok-98765', SVC_MODEL: 'qwen3:4b', SHORT_SECRET: 'ab' };
    const masked = maskSecretValues({ llm: { api_key: 'sk-live-123456', header: 'Bearer tok-98765', model: 'qwen3:4b', tag: 'ab' } }, env);
    expect(masked).toEqual({ llm: { api_key: '${PROVIDERA_API_KEY}', header: 'Bearer ${MY_TOKEN}', model: 'qwen3:4b', tag: 'ab' } });
  });
});
