import { expect, test } from 'bun:test';
import { backoffMs } from '../../../src/core/outbound.ts';

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
