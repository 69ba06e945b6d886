// The dashboard's event stream helper: events as the source gives them, a heartbeat comment when
// it stays quiet, the end after the last batch, and the source stopped when the reader goes away.
import { expect, test } from 'bun:test';
import { eventStreamResponse, sseEvent } from '../../../src/server/event-stream.ts';
import { readEvents } from '../../support/event-stream.ts';

type Batch = { text: string; last: boolean };

test('a quiet source gets heartbeat comments; its events follow; the stream ends after the last', async () => {
  async function* source(): AsyncGenerator<Batch> {
    for (let i = 0; i < 6; i++) {
      await Bun.sleep(20);
      yield { text: '', last: false };
    }
    yield { text: sseEvent({ msg: 'hi' }, { id: 0, event: 'log' }), last: false };
    yield { text: sseEvent({ status: 'completed' }, { event: 'done' }), last: true };
    yield { text: sseEvent({ msg: 'never sent' }), last: false };
  }
  const res = eventStreamResponse(source(), (b) => b, 30);
  expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const reader = readEvents(res);
  const events = [];
  for (let ev = await reader.next(); ev !== null; ev = await reader.next()) events.push(ev);
  expect(events[0]).toEqual({});
  const heartbeats = events.filter((e) => e.comment === 'heartbeat').length;
  expect(heartbeats).toBeGreaterThan(0);
  expect(events.slice(1 + heartbeats)).toEqual([
    { id: '0', event: 'log', data: { msg: 'hi' } },
    { event: 'done', data: { status: 'completed' } },
  ]);
});

test('a reader going away stops the source', async () => {
  let stopped = false;
  async function* source(): AsyncGenerator<Batch> {
    try {
      for (;;) {
        await Bun.sleep(5);
        yield { text: sseEvent({ msg: 'tick' }), last: false };
      }
    } finally {
      stopped = true;
    }
  }
  const res = eventStreamResponse(source(), (b) => b);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  await reader.read();
  await reader.cancel();
  expect(stopped).toBe(true);
});
