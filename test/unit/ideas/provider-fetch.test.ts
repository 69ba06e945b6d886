import { afterAll, beforeAll, expect, test } from 'bun:test';
import { fetchText, MAX_PROVIDER_ANSWER_BYTES, ProviderFailure } from '../../../src/ideas/provider-fetch.ts';

let server: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === '/small') return new Response('<feed/>');
      // a broken or hostile provider that sends without end, no length declared
      let sent = 0;
      const chunk = new Uint8Array(1024 * 1024).fill(120);
      return new Response(
        new ReadableStream({
          pull(ctl) {
            if (sent > 4 * MAX_PROVIDER_ANSWER_BYTES) return ctl.close();
            sent += chunk.byteLength;
            ctl.enqueue(chunk);
          },
        }),
      );
    },
  });
});
afterAll(() => server.stop(true));

test('an answer past the size limit is a provider failure, read no further than the limit', async () => {
  const err = await fetchText(`http://127.0.0.1:${server.port}/endless`, { deadline: Date.now() + 60_000 }).catch((e) => e);
  expect(err).toBeInstanceOf(ProviderFailure);
  expect((err as ProviderFailure).kind).toBe('bad_answer');
  expect((err as Error).message).toContain('more than');
});

test('an answer within the limit is read whole', async () => {
  expect(await fetchText(`http://127.0.0.1:${server.port}/small`, { deadline: Date.now() + 60_000 })).toBe('<feed/>');
});
