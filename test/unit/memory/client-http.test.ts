// The memory client's error messages name the server without the user:password its URL may carry.
import { afterAll, describe, expect, test } from 'bun:test';
import { requestJson } from '../../../src/memory/client-http.ts';

// answers by path: 401, 500, and text that is not JSON
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(req) {
    const path = new URL(req.url).pathname;
    if (path === '/refused') return Response.json({ detail: 'no' }, { status: 401 });
    if (path === '/broken') return Response.json({ detail: 'boom' }, { status: 500 });
    return new Response('not json');
  },
});
afterAll(() => server.stop(true));

const closed = (() => {
  const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') });
  const port = s.port as number;
  s.stop(true);
  return port;
})();

const messageOf = (baseUrl: string, path: string) => requestJson({ baseUrl, timeoutMs: 2000 }, 'GET', path).then(
  () => '',
  (err: Error) => err.message,
);

describe('requestJson with credentials in the base URL', () => {
  test('unreachable, refused, failed and non-JSON answers all name the server without them', async () => {
    const messages = [
      await messageOf(`http://user:pass@127.0.0.1:${closed}`, '/v1/health/'),
      await messageOf(`http://user:pass@127.0.0.1:${server.port}`, '/refused'),
      await messageOf(`http://user:pass@127.0.0.1:${server.port}`, '/broken'),
      await messageOf(`http://user:pass@127.0.0.1:${server.port}`, '/text'),
    ];
    expect(messages[0]).toStartWith(`memory server http://127.0.0.1:${closed} (MEMBACKEND_BASE_URL): not reachable`);
    expect(messages[1]).toStartWith(`memory server http://127.0.0.1:${server.port} needs a key`);
    expect(messages[2]).toStartWith(`memory server http://127.0.0.1:${server.port} answered 500 to GET /broken`);
    expect(messages[3]).toBe(`memory server at http://127.0.0.1:${server.port}/text did not answer JSON`);
    for (const m of messages) expect(m).not.toContain('pass');
  });
});
