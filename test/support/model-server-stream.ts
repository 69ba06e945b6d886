/** Text cut into a few pieces, as a streaming server sends it. */
export function pieces(text: string): string[] {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** A Server-Sent Events response from a list of events. */
export function sse(events: { event?: string; data: unknown }[]): Response {
  const text = events.map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`).join('');
  return new Response(text, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } });
}
