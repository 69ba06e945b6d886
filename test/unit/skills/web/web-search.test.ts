import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { webSearchTool } from '../../../../src/skills/web/web-search.ts';
import { type BraveServer, startBraveServer } from '../../../support/brave-server.ts';
import { closedPort, rejection } from '../../llm/helpers.ts';
import { callTool } from '../coding/tool-call.ts';
import { webSandbox } from './web-fixture.ts';

const { env } = webSandbox();
const KEY = 'brave-test-key';
let brave: BraveServer;
beforeEach(() => {
  brave = startBraveServer({
    key: KEY,
    pages: [
      { title: 'Loop <strong>tiling</strong> - Wikipedia', url: 'https://en.wikipedia.org/wiki/Loop_nest_optimization', description: 'In computer science, <strong>loop tiling</strong> partitions a loop&#x27;s iteration space.' },
      { title: 'Cache blocking techniques', url: 'https://example.org/blocking', description: 'How <strong>tiling</strong> improves cache reuse.' },
      { title: 'Unrelated', url: 'https://example.org/other', description: 'Nothing here.' },
    ],
  });
});
afterEach(() => brave.stop());

const search = (args: Record<string, unknown>, extra: Record<string, string> = {}) => callTool(webSearchTool, args, env({ BRAVE_API_KEY: KEY, SVC_WEB_SEARCH_URL: brave.url, ...extra }));

describe('web_search through the Brave Search API', () => {
  test('sends q, count and the key; returns title, url and description as plain text', async () => {
    const r = await search({ query: 'loop tiling' });
    expect(brave.requests).toHaveLength(1);
    const req = brave.requests[0]!;
    expect(req.query.get('q')).toBe('loop tiling');
    expect(req.query.get('count')).toBe('5');
    expect(req.headers['x-subscription-token']).toBe(KEY);
    expect(req.headers.accept).toBe('application/json');
    expect(r).toEqual({
      query: 'loop tiling',
      provider: 'brave',
      results: [
        { title: 'Loop tiling - Wikipedia', url: 'https://en.wikipedia.org/wiki/Loop_nest_optimization', description: "In computer science, loop tiling partitions a loop's iteration space." },
        { title: 'Cache blocking techniques', url: 'https://example.org/blocking', description: 'How tiling improves cache reuse.' },
      ],
    });
    expect((await search({ query: 'tiling', n: 1 })).results).toHaveLength(1);
    expect(brave.requests[1]?.query.get('count')).toBe('1');
    expect(await search({ query: 'zzz-nothing' })).toEqual({ query: 'zzz-nothing', provider: 'brave', results: [] });
  });

  test('without BRAVE_API_KEY it is an error naming the variable, and nothing is sent', async () => {
    const err = await rejection(callTool(webSearchTool, { query: 'loop tiling' }, env({ SVC_WEB_SEARCH_URL: brave.url })));
    expect(err.message).toBe('web_search: no web search provider is configured: BRAVE_API_KEY is not set');
    expect((err as { hint?: string }).hint).toContain('set BRAVE_API_KEY to a Brave Search API key');
    expect(brave.requests).toEqual([]);
  });

  test('a key Brave refuses is an error saying so', async () => {
    const err = await rejection(search({ query: 'tiling' }, { BRAVE_API_KEY: 'wrong' }));
    expect(err.message).toMatch(/^web_search: Brave Search refused BRAVE_API_KEY \(127\.0\.0\.1:\d+ answered 401: .*SUBSCRIPTION_TOKEN_INVALID/);
  });

  test('a 429 is retried after its Retry-After; one that keeps coming ends in a note, no results', async () => {
    brave.push({ status: 429, retryAfter: 1 });
    const started = Date.now();
    const r = await search({ query: 'tiling' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(r.results).toHaveLength(2);
    expect(brave.requests).toHaveLength(2);

    brave.push({ status: 429, retryAfter: 3600 });
    const limited = await search({ query: 'tiling' });
    expect(limited).toMatchObject({ results: [], note: expect.stringMatching(/^no results: 127\.0\.0\.1:\d+ answered 429 \(rate limited\) 1 time, last asking to wait 3600 s; the plan's rate limit is reached, try again later$/) });
  });

  test('a provider that cannot be reached gives no results and a note, promptly', async () => {
    const r = await search({ query: 'tiling' }, { SVC_WEB_SEARCH_URL: `http://127.0.0.1:${closedPort()}` });
    expect(r).toMatchObject({ results: [], offline: true, note: expect.stringMatching(/^no results: 127\.0\.0\.1:\d+ is not reachable .*; check the network or SVC_WEB_SEARCH_URL$/) });
  });

  test('bad queries are refused before anything is sent', async () => {
    expect((await rejection(search({ query: '  ' }))).message).toBe('web_search: query is empty');
    expect((await rejection(search({ query: 'x'.repeat(401) }))).message).toMatch(/^web_search: the query is over 400 characters or 50 words/);
    expect((await rejection(search({ query: Array(51).fill('w').join(' ') }))).message).toMatch(/over 400 characters or 50 words/);
    expect((await rejection(search({ query: 'tiling', n: 21 }))).message).toBe('web_search: n must be an integer from 1 to 20, got 21');
    expect(brave.requests).toEqual([]);
  });
});
