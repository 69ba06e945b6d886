import { afterAll, describe, expect, test } from 'bun:test';
import { abortableSleep, fetchWithStallTimeout, readCapped, RetriesExhausted, retryAfterMs, withRetries } from '../../../src/core/outbound.ts';

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
  // a Fetch Headers object reads alike; '-3' is no date
  expect(retryAfterMs(new Headers({ 'Retry-After': '7' }), now)).toBe(7000);
  expect(retryAfterMs(new Headers({ 'retry-after': '-3' }), now)).toBeNull();
  expect(retryAfterMs(new Headers(), now)).toBeNull();
});


test('an abortable sleep waits, or ends at once with the reason of its signal', async () => {
  await abortableSleep(5);
  const stop = new AbortController();
  const waiting = abortableSleep(60_000, stop.signal).then(() => 'slept', (e: Error) => e.message);
  stop.abort(new Error('stopped'));
  expect(await waiting).toBe('stopped');
  expect(await abortableSleep(60_000, stop.signal).then(() => 'slept', (e: Error) => e.message)).toBe('stopped');
});

test('a capped read: the whole text under the cap; past it, or declared past it, the error given', async () => {
  const tooLarge = () => new Error('too large');
  expect(await readCapped(new Response('hello'), 5, tooLarge)).toBe('hello');
  expect(await readCapped(new Response(null), 5, tooLarge)).toBe('');
  // sent in chunks without a length: stopped once past the cap
  const endless = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(new Uint8Array(1024)) });
  expect(await readCapped(new Response(endless), 10_000, tooLarge).catch((e: Error) => e.message)).toBe('too large');
  const declared = new Request('http://x/', { method: 'POST', body: 'abcdef', headers: { 'content-length': '999999' } });
  expect(await readCapped(declared, 10, tooLarge).catch((e: Error) => e.message)).toBe('too large');
});

describe('a fetch held to a stall limit', () => {
  const stalled = () => new Error('stalled');
  /** Sends `chunks` bytes, one every `gapMs`, then holds the response open without ending it when `hang`. */
  const drip = (chunks: number, gapMs: number, hang: boolean) =>
    new ReadableStream<Uint8Array>({
      async start(c) {
        for (let i = 0; i < chunks; i++) {
          c.enqueue(new Uint8Array([i]));
          await Bun.sleep(gapMs);
        }
        if (hang) await Bun.sleep(30_000);
        c.close();
      },
    });
  let released = Promise.withResolvers<void>();
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === '/endless') {
        req.signal.addEventListener('abort', () => released.resolve());
        return new Response(new ReadableStream({ pull: async (c) => { c.enqueue(new Uint8Array(1024)); await Bun.sleep(10); } }));
      }
      if (path === '/silent') return new Promise<Response>(() => {});
      if (path === '/stops') return new Response(drip(2, 0, true));
      return new Response(drip(25, 50, false));
    },
  });
  afterAll(() => void server.stop(true));
  const body = async (res: Response) => (await res.bytes()).length;

  test('no answer at all fails with the stall error', async () => {
    expect(await fetchWithStallTimeout(`${server.url}silent`, {}, 200, stalled).catch((e: Error) => e.message)).toBe('stalled');
  });

  test('a body that stops coming fails with the stall error', async () => {
    const res = await fetchWithStallTimeout(`${server.url}stops`, {}, 200, stalled);
    expect(res.status).toBe(200);
    expect(await body(res).catch((e: Error) => e.message)).toBe('stalled');
  });

  test('a body that keeps coming goes through, for longer than the limit in all', async () => {
    expect(await body(await fetchWithStallTimeout(`${server.url}steady`, {}, 1000, stalled))).toBe(25);
  });

  test('the time the caller takes between reads is not counted', async () => {
    const res = await fetchWithStallTimeout(`${server.url}steady`, {}, 1000, stalled);
    const reader = res.body!.getReader();
    let bytes = 0;
    for (let reads = 1; ; reads++) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      if (reads === 1) await Bun.sleep(1500);
    }
    expect(bytes).toBe(25);
  });

  test('a body given up before its first read lets the connection go', async () => {
    released = Promise.withResolvers<void>();
    const res = await fetchWithStallTimeout(`${server.url}endless`, {}, 1000, stalled);
    await res.body?.cancel();
    // the server sees its client leave: resolves, or the test times out
    await released.promise;
  });
});

describe('one retry loop', () => {
  const failing = (errors: unknown[]) => {
    let calls = 0;
    const attempt = async () => {
      const e = errors[calls++];
      if (e === undefined) return 'ok';
      throw e;
    };
    return { attempt, calls: () => calls };
  };
  const retryable = (afterMs: number | null = null) => Object.assign(new Error('busy'), { afterMs });
  const classify = (e: unknown) => ({ retry: (e as { afterMs?: unknown }).afterMs !== undefined, afterMs: (e as { afterMs?: number | null }).afterMs ?? null });

  test('retries what the classifier calls retryable, with the wait the server asked for', async () => {
    const f = failing([retryable(1), retryable(2)]);
    expect(await withRetries(f.attempt, { maxRetries: 3, deadline: Date.now() + 10_000, classify })).toBe('ok');
    expect(f.calls()).toBe(3);
  });

  test('a final error, spent retries or a wait past the deadline stop it, saying why', async () => {
    const final = await withRetries(failing([new Error('no')]).attempt, { maxRetries: 3, deadline: Date.now() + 10_000, classify }).catch((e) => e);
    expect(final).toBeInstanceOf(RetriesExhausted);
    expect([final.attempts, final.nextWaitMs, final.last.message]).toEqual([1, null, 'no']);
    const spent = await withRetries(failing([retryable(1), retryable(1), retryable(1)]).attempt, { maxRetries: 2, deadline: Date.now() + 10_000, classify }).catch((e) => e);
    expect([spent.attempts, spent.nextWaitMs]).toEqual([3, 1]);
    // the backoff of the policy when the server asks for no wait; a wait past the deadline is not waited
    const late = await withRetries(failing([retryable(null)]).attempt, { maxRetries: 5, deadline: Date.now() + 1000, classify, backoff: () => 5000 }).catch((e) => e);
    expect([late.attempts, late.nextWaitMs]).toEqual([1, 5000]);
  });

  test("a long wait asked for is cut to the policy's longest, and the signal ends any wait", async () => {
    const f = failing([retryable(3_600_000)]);
    const stop = new AbortController();
    const cut = withRetries(f.attempt, { maxRetries: 1, deadline: Date.now() + 10_000, classify, maxWaitMs: 20, signal: stop.signal });
    expect(await cut).toBe('ok');
    expect(f.calls()).toBe(2);
    const waiting = withRetries(failing([retryable(60_000)]).attempt, { maxRetries: 1, deadline: Date.now() + 120_000, classify, signal: stop.signal });
    await Bun.sleep(20);
    stop.abort(new Error('stopped'));
    expect(await waiting.catch((e: Error) => e.message)).toBe('stopped');
  });
});
