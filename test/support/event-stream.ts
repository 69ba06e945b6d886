/** One server-sent event as parsed from the wire: fields present only when the block had them. */
export type ServerEvent = { id?: string; event?: string; data?: any; comment?: string };

export type EventReader = {
  /** the next event or comment block; null once the server closed the stream */
  next: () => Promise<ServerEvent | null>;
  /** the next event carrying data, skipping comments and `retry:` hints */
  message: () => Promise<ServerEvent | null>;
  closed: () => boolean;
};

/** Reads a `text/event-stream` response body one block at a time (blocks end with an empty line). */
export function readEvents(res: Response): EventReader {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buf = '';
  let closed = false;
  const next = async (): Promise<ServerEvent | null> => {
    for (;;) {
      const cut = buf.indexOf('\n\n');
      if (cut !== -1) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const ev: ServerEvent = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) ev.comment = line.slice(1).trim();
          else if (line.startsWith('id: ')) ev.id = line.slice(4);
          else if (line.startsWith('event: ')) ev.event = line.slice(7);
          else if (line.startsWith('data: ')) ev.data = JSON.parse(line.slice(6));
        }
        return ev;
      }
      const { value, done } = await reader.read();
      if (done) {
        closed = true;
        return null;
      }
      buf += decoder.decode(value, { stream: true });
    }
  };
  const message = async (): Promise<ServerEvent | null> => {
    for (;;) {
      const ev = await next();
      if (ev === null || ev.data !== undefined) return ev;
    }
  };
  return { next, message, closed: () => closed };
}
