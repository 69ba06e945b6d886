import { describe, expect, test } from 'bun:test';
import { epochSeconds, when } from '../../../ui/src/format.ts';

describe('times as the dashboard shows them', () => {
  // made from local clock fields: the expected text holds in any time zone
  const local = new Date(2026, 10, 1, 9, 5, 7);

  test('a time reads as its local date and minute, zero-padded', () => {
    expect(when(local.toISOString())).toBe('2026-11-01 09:05');
  });

  test('epoch seconds read with their seconds', () => {
    expect(epochSeconds(local.getTime() / 1000)).toBe('2026-11-01 09:05:07');
  });

  test('what is not a time is shown as given, or as a dash', () => {
    expect(when('not a time')).toBe('not a time');
    expect(epochSeconds(undefined)).toBe('–');
    expect(epochSeconds(Number.NaN)).toBe('–');
  });
});
