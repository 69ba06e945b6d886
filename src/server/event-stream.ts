/** A comment line every so often keeps proxies and browsers from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;

const HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

/** What one batch becomes on the wire: its events ('' for none), and whether the stream ends after them. */
export type RenderedBatch = { text: string; last: boolean };

/**
 * Server-sent events from a source of batches: each batch rendered to its events, a heartbeat
 * comment when nothing was sent for a while, and the stream closed after the last. The stream is
 * pulled: a reader that stops reading, or goes away, stops the source (it must yield now and then,
 * even empty batches, for the heartbeat to be sent).
 */
export function eventStreamResponse<T>(batches: AsyncGenerator<T>, render: (batch: T) => RenderedBatch, heartbeatMs = HEARTBEAT_MS): Response {
  const encoder = new TextEncoder();
  let lastWrite = Date.now();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // sent at once, so the reader sees the stream open before the first event; also its reconnect delay
      controller.enqueue(encoder.encode('retry: 2000\n\n'));
    },
    async pull(controller) {
      for (;;) {
        const next = await batches.next();
        if (next.done) return controller.close();
        let { text, last } = render(next.value);
        if (text === '' && !last && Date.now() - lastWrite >= heartbeatMs) text = ': heartbeat\n\n';
        if (text === '' && !last) continue;
        lastWrite = Date.now();
        if (text !== '') controller.enqueue(encoder.encode(text));
        if (last) {
          // the source is finished with too: its cleanup runs now, not when the stream is collected
          await batches.return(undefined);
          controller.close();
        }
        return;
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return new Response(body, { headers: HEADERS });
}

/** One event: `id:` when given, `event:` when not the default message, and its data as JSON. */
export function sseEvent(data: unknown, opts: { id?: string | number; event?: string } = {}): string {
  return `${opts.id === undefined ? '' : `id: ${opts.id}\n`}${opts.event ? `event: ${opts.event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}
