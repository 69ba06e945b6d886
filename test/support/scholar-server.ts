/**
 * A scholarly search server on 127.0.0.1 speaking two real protocols: the Semantic Scholar Graph
 * API's paper search (`GET /graph/v1/paper/search`, JSON, `x-api-key`, 429 with Retry-After) and
 * the arXiv export API (`GET /api/query`, an Atom feed). It answers from its papers, unless a
 * scripted step comes first: an error status, a delay, or a raw body.
 */
export type ScholarPaper = {
  title: string;
  abstract: string | null;
  /** the arXiv id, and the paper id on the Semantic Scholar side */
  id: string;
  /** what a citation needs; a paper without them is answered as the real APIs answer a sparse record */
  authors?: string[];
  year?: number;
  venue?: string;
  doi?: string;
};

export type ScholarStep =
  | { status: number; retryAfter?: number | string; body?: string }
  | { delayMs: number }
  | { raw: string; contentType?: string };

export type ScholarRequest = { path: string; query: URLSearchParams; headers: Record<string, string> };

export type ScholarServer = {
  url: string;
  requests: ScholarRequest[];
  push(...steps: ScholarStep[]): void;
  stop(): void;
};

export type ScholarServerOptions = { papers?: ScholarPaper[]; apiKey?: string };

const S2_RATE_LIMIT = 'Too Many Requests. Please wait and try again or apply for a key for higher rate limits. https://www.semanticscholar.org/product/api#api-key-form';

export function startScholarServer(opts: ScholarServerOptions = {}): ScholarServer {
  const papers = opts.papers ?? [];
  const steps: ScholarStep[] = [];
  const requests: ScholarRequest[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      requests.push({ path: url.pathname, query: url.searchParams, headers: Object.fromEntries(req.headers) });
      const step = steps.shift();
      if (step && 'delayMs' in step) await Bun.sleep(step.delayMs);
      if (step && 'raw' in step) return new Response(step.raw, { headers: { 'content-type': step.contentType ?? 'application/json' } });
      if (step && 'status' in step) return scriptedError(url.pathname, step);
      if (url.pathname === '/graph/v1/paper/search') return scholarSearch(url.searchParams, req.headers, papers, opts.apiKey);
      if (url.pathname === '/api/query') return arxivQuery(url.searchParams, papers);
      return Response.json({ message: `no route ${url.pathname}` }, { status: 404 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    push: (...more) => steps.push(...more),
    stop: () => void server.stop(true),
  };
}

function scriptedError(path: string, step: { status: number; retryAfter?: number | string; body?: string }): Response {
  const headers: Record<string, string> = {};
  if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
  if (path.startsWith('/graph/')) {
    const body = step.body ?? JSON.stringify(step.status === 429 ? { message: S2_RATE_LIMIT, code: '429' } : { message: 'Internal Server Error' });
    return new Response(body, { status: step.status, headers: { ...headers, 'content-type': 'application/json' } });
  }
  return new Response(step.body ?? `Rate exceeded.`, { status: step.status, headers: { ...headers, 'content-type': 'text/plain' } });
}

/** Relevance here is simply: every paper whose title or abstract shares a word with the query. */
function matching(papers: ScholarPaper[], words: string[]): ScholarPaper[] {
  return papers.filter((p) => words.some((w) => `${p.title} ${p.abstract ?? ''}`.toLowerCase().includes(w)));
}

function scholarSearch(q: URLSearchParams, headers: Headers, papers: ScholarPaper[], apiKey?: string): Response {
  if (apiKey !== undefined && headers.get('x-api-key') !== apiKey) return Response.json({ message: 'Forbidden' }, { status: 403 });
  const query = q.get('query');
  if (!query) return Response.json({ error: "Missing required parameter: 'query'" }, { status: 400 });
  const limit = Number(q.get('limit') ?? '100');
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return Response.json({ error: 'Unacceptable query params: [limit must be <= 100]' }, { status: 400 });
  const fields = (q.get('fields') ?? '').split(',');
  const found = matching(papers, query.toLowerCase().split(/\s+/));
  if (found.length === 0) return Response.json({ total: 0, offset: 0 });
  const data = found.slice(0, limit).map((p) => {
    const d: Record<string, unknown> = { paperId: p.id };
    if (fields.includes('title')) d.title = p.title;
    if (fields.includes('abstract')) d.abstract = p.abstract;
    if (fields.includes('url')) d.url = `https://www.semanticscholar.org/paper/${p.id}`;
    if (fields.includes('year')) d.year = p.year ?? null;
    if (fields.includes('venue')) d.venue = p.venue ?? '';
    if (fields.includes('authors')) d.authors = (p.authors ?? []).map((name, i) => ({ authorId: String(1000 + i), name }));
    if (fields.includes('externalIds')) d.externalIds = { ArXiv: p.id, CorpusId: 1, ...(p.doi ? { DOI: p.doi } : {}) };
    return d;
  });
  return Response.json({ total: found.length, offset: 0, ...(found.length > limit ? { next: limit } : {}), data });
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function arxivQuery(q: URLSearchParams, papers: ScholarPaper[]): Response {
  const query = q.get('search_query') ?? '';
  const max = Number(q.get('max_results') ?? '10');
  const head = `<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom">\n  <id>https://arxiv.org/api/query</id>\n  <title>arXiv Query: search_query=${xml(query)}</title>\n  <updated>2026-01-01T00:00:00Z</updated>\n`;
  if (!/^all:/.test(query)) {
    const err = `  <opensearch:totalResults>1</opensearch:totalResults>\n  <entry>\n    <id>http://arxiv.org/api/errors#malformed_query</id>\n    <title>Error</title>\n    <summary>malformed search_query</summary>\n  </entry>\n</feed>\n`;
    return new Response(head + err, { headers: { 'content-type': 'application/atom+xml; charset=utf-8' } });
  }
  const words = [...query.matchAll(/all:([^\s]+)/g)].map((m) => (m[1] ?? '').toLowerCase());
  const found = matching(papers, words).slice(0, max);
  const entries = found
    .map((p) => {
      const authors = (p.authors ?? ['A. Author']).map((a) => `    <author>\n      <name>${xml(a)}</name>\n    </author>\n`).join('');
      const extra = `${p.doi ? `    <arxiv:doi>${xml(p.doi)}</arxiv:doi>\n` : ''}${p.venue ? `    <arxiv:journal_ref>${xml(p.venue)}</arxiv:journal_ref>\n` : ''}`;
      return `  <entry>\n    <id>http://arxiv.org/abs/${p.id}v1</id>\n    <updated>2026-01-01T00:00:00Z</updated>\n    <published>${p.year ?? 2026}-01-01T00:00:00Z</published>\n    <title>${xml(p.title)}</title>\n    <summary>  ${xml(p.abstract ?? '')}\n    </summary>\n${authors}${extra}    <link href="http://arxiv.org/abs/${p.id}v1" rel="alternate" type="text/html"/>\n    <arxiv:primary_category term="cs.LG"/>\n  </entry>\n`;
    })
    .join('');
  const body = `${head}  <opensearch:totalResults>${found.length}</opensearch:totalResults>\n  <opensearch:startIndex>0</opensearch:startIndex>\n  <opensearch:itemsPerPage>${max}</opensearch:itemsPerPage>\n${entries}</feed>\n`;
  return new Response(body, { headers: { 'content-type': 'application/atom+xml; charset=utf-8' } });
}
