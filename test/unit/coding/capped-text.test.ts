import { describe, expect, test } from 'bun:test';
import { CappedText } from '../../../src/coding/capped-text.ts';

/** What CappedText must produce for the whole text, however it arrives. */
function expected(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.ceil(max / 2);
  const tail = Math.floor(max / 2);
  return `${text.slice(0, head)}\n[... ${text.length - head - tail} characters cut ...]\n${text.slice(text.length - tail)}`;
}

function collect(chunks: string[], max: number): CappedText {
  const c = new CappedText(max);
  for (const chunk of chunks) c.push(chunk);
  return c;
}

describe('CappedText', () => {
  test('short text is kept whole', () => {
    const c = collect(['ab', '', 'cd'], 10);
    expect(c.text()).toBe('abcd');
    expect(c.truncated).toBe(false);
  });

  test.each([1, 3, 7, 64, 1000])('long text in chunks of %i keeps the same head and tail', (size) => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i}\n`).join('');
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
    for (const max of [11, 100, 1000]) {
      const c = collect(chunks, max);
      expect(c.text()).toBe(expected(text, max));
      expect(c.truncated).toBe(text.length > max);
    }
  });
});
