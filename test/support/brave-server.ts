/**
 * A web search server on 127.0.0.1 speaking the Brave Search API's web search
 * (`GET /res/v1/web/search?q=&count=`, the key in `X-Subscription-Token`, 401 for a wrong one,
 * 422 for a bad parameter, 429 with Retry-After when scripted), answering from its pages.
 */
export type BravePage = { title: string; url: string; description: string };

export type BraveStep = { status: number; retryAfter?: number } | { delayMs: number };

export type BraveServer = {
  url: string;
  requests: { query: URLSearchParams; headers: Record<string, string> }[];
  push(...steps: BraveStep[]): void;
  stop(): void;
};

export function startBraveServer(opts: { key: string; pages: BravePage[] }): BraveServer {
  const steps: BraveStep[] = [];
  const requests: BraveServer['requests'] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      requests.push({ query: url.searchParams, headers: Object.fromEntries(req.headers) });
      if (url.pathname !== '/res/v1/web/search') return Response.json({ type: 'ErrorResponse', error: { status: 404, detail: 'Not found' } }, { status: 404 });
      const step = steps.shift();
      if (step && 'delayMs' in step) await Bun.sleep(step.delayMs);
      if (step && 'status' in step) {
        const headers: Record<string, string> = step.retryAfter === undefined ? {} : { 'retry-after': String(step.retryAfter), 'x-ratelimit-reset': String(step.retryAfter) };
        return Response.json({ type: 'ErrorResponse', error: { code: 'RATE_LIMITED', status: step.status, detail: 'Request rate limit exceeded for plan.' } }, { status: step.status, headers });
      }
      if (req.headers.get('x-subscription-token') !== opts.key) {
        return Response.json({ type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID', status: 401, detail: 'The provided subscription token is invalid.' } }, { status: 401 });
      }
      const q = url.searchParams.get('q') ?? '';
      const count = Number(url.searchParams.get('count') ?? '20');
      if (!q || !Number.isInteger(count) || count < 1 || count > 20) return Response.json({ type: 'ErrorResponse', error: { code: 'VALIDATION', status: 422, detail: 'Unable to validate request parameter(s)' } }, { status: 422 });
      const words = q.toLowerCase().split(/\s+/);
      const found = opts.pages.filter((p) => words.some((w) => `${p.title} ${p.description}`.toLowerCase().includes(w))).slice(0, count);
      const body: Record<string, unknown> = { type: 'search', query: { original: q, more_results_available: false } };
      if (found.length) body.web = { type: 'search', results: found.map((p) => ({ type: 'search_result', title: p.title, url: p.url, description: p.description, is_source_local: false, language: 'en' })), family_friendly: true };
      return Response.json(body);
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, push: (...more) => steps.push(...more), stop: () => void server.stop(true) };
}
