import { expect, test } from 'bun:test';
import { backoffMs, retryAfterMs } from '../../../src/llm/retry.ts';

test('the wait a server asks for', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  expect(retryAfterMs({ 'retry-after': '3' }, now)).toBe(3000);
  expect(retryAfterMs({ 'Retry-After': '1.5' }, now)).toBe(1500);
  expect(retryAfterMs({ 'retry-after-ms': '250', 'retry-after': '3' }, now)).toBe(250);
  expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }, now)).toBe(7000);
  // a date in the past: retry at once
  expect(retryAfterMs({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }, now)).toBe(0);
  expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeNull();
  expect(retryAfterMs({ 'retry-after-ms': '-5' }, now)).toBeNull();
  expect(retryAfterMs({}, now)).toBeNull();
  expect(retryAfterMs(undefined, now)).toBeNull();
});

test('backoff doubles, with jitter in the upper half of each step', () => {
  for (let i = 0; i < 50; i++) {
    const first = backoffMs(0);
    const third = backoffMs(2);
    expect(first).toBeGreaterThanOrEqual(250);
    expect(first).toBeLessThanOrEqual(500);
    expect(third).toBeGreaterThanOrEqual(1000);
    expect(third).toBeLessThanOrEqual(2000);
  }
});
