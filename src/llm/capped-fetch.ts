import { TooLargeError } from '../core/errors.ts';

type Fetch = (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => Promise<Response>;

/** Far above any model's answer: a 128k-token answer is about half a megabyte of JSON. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/**
 * fetch whose response bodies end with an error past `maxBytes`. The SDK reads an answer whole,
 * so a server (or a wrong API base) sending without end would otherwise take all memory.
 */
export function cappedFetch(inner: Fetch, maxBytes = MAX_ANSWER_BYTES): typeof fetch {
  const capped: Fetch = async (input, init) => {
    const res = await inner(input, init);
    if (!res.body) return res;
    const tooLarge = () => new TooLargeError(`the model server at ${originOf(input)} sent more than ${maxBytes} bytes for one answer`, 'check the API base: no model answers that much');
    if (Number(res.headers.get('content-length') ?? 0) > maxBytes) {
      await res.body.cancel().catch(() => {});
      throw tooLarge();
    }
    let seen = 0;
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, ctl) {
          seen += chunk.byteLength;
          if (seen > maxBytes) ctl.error(tooLarge());
          else ctl.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return capped as typeof fetch;
}

function originOf(input: Parameters<typeof fetch>[0]): string {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  try {
    return new URL(href).origin;
  } catch {
    return 'its address';
  }
}
