// The local daemon's errors name it without the user:password its URL may carry.
import { afterAll, describe, expect, test } from 'bun:test';
import { daemonModels } from '../../../src/llm/local-daemon.ts';

// answers 500 to the model list, and text that is not JSON to the version
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: (req) => (new URL(req.url).pathname === '/api/tags' ? new Response('down', { status: 500 }) : new Response('not json')),
});
const text = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('not json') });
afterAll(() => {
  server.stop(true);
  text.stop(true);
});

const closed = (() => {
  const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') });
  const port = s.port as number;
  s.stop(true);
  return port;
})();

const errorOf = async (url: string) => {
  const d = await daemonModels(url);
  return d.reachable ? '' : d.error;
};

describe('daemonModels with credentials in the URL', () => {
  test('unreachable, failing and non-JSON daemons are named without them', async () => {
    const errors = [await errorOf(`http://user:pass@127.0.0.1:${closed}`), await errorOf(`http://user:pass@127.0.0.1:${server.port}`), await errorOf(`http://user:pass@127.0.0.1:${text.port}`)];
    expect(errors).toEqual([
      `local model daemon at http://127.0.0.1:${closed}: not reachable`,
      `the local model daemon at http://127.0.0.1:${server.port} answered 500 to /api/tags`,
      `the local model daemon at http://127.0.0.1:${text.port} sent something other than JSON for /api/tags`,
    ]);
  });

  test('the URL it reports, reachable or not, is without them', async () => {
    const daemon = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({ models: [{ name: 'm:latest' }] }) });
    try {
      const up = await daemonModels(`http://user:pass@127.0.0.1:${daemon.port}`);
      expect(up).toMatchObject({ url: `http://127.0.0.1:${daemon.port}`, reachable: true });
      expect((await daemonModels(`http://user:pass@127.0.0.1:${closed}`)).url).toBe(`http://127.0.0.1:${closed}`);
    } finally {
      daemon.stop(true);
    }
  });
});
