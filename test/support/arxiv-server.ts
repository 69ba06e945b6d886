/**
 * The arXiv export API on 127.0.0.1 for the paper registry's tests: `GET /api/query?id_list=<id>`
 * answers an Atom feed with one entry per known id (the shape of ari-wire-formats 3.14: title,
 * summary, published, two authors, the pdf link), an empty feed for an unknown one, as arXiv
 * does; `GET /pdf/<id>` answers the paper's PDF. `failWith` makes every answer that status.
 */
export type ArxivPaper = { id: string; title: string; summary: string; published: string; authors: string[] };

export type ArxivServer = {
  url: string;
  /** every request's path and query, in order */
  requests: string[];
  /** the answer status of every later request (null: answer normally) */
  failWith(status: number | null): void;
  stop(): void;
};

export const ARXIV_PDF = Buffer.from('%PDF-1.4\n% arXiv test paper\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

export const ATTENTION_PAPER: ArxivPaper = {
  id: '2404.14193',
  title: 'A Paper About\n  Attention &amp; Its &lt;Limits&gt;',
  summary: 'We study attention.',
  published: '2024-04-22T00:00:00Z',
  authors: ['Ada Lovelace', 'Alan Turing'],
};

export function startArxivServer(papers: ArxivPaper[] = [ATTENTION_PAPER]): ArxivServer {
  const requests: string[] = [];
  let failing: number | null = null;
  const byId = (raw: string) => papers.find((p) => p.id === raw.replace(/v\d+$/, ''));
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      requests.push(url.pathname + url.search);
      if (failing !== null) return new Response('upstream trouble', { status: failing });
      if (url.pathname === '/api/query') {
        const ids = (url.searchParams.get('id_list') ?? '').split(',').filter(Boolean);
        const found = ids.flatMap((id) => {
          const p = byId(id);
          return p ? [{ p, asked: id }] : [];
        });
        return new Response(feed(url.search, found), { headers: { 'content-type': 'application/atom+xml; charset=utf-8' } });
      }
      const pdf = /^\/pdf\/(.+)$/.exec(url.pathname);
      if (pdf && byId(pdf[1] ?? '')) return new Response(ARXIV_PDF, { headers: { 'content-type': 'application/pdf' } });
      return new Response('not found', { status: 404 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    failWith: (status) => void (failing = status),
    stop: () => void server.stop(true),
  };
}

function feed(query: string, found: { p: ArxivPaper; asked: string }[]): string {
  const entries = found.map(({ p, asked }) => {
    const version = /v\d+$/.exec(asked)?.[0] ?? 'v1';
    const authors = p.authors.map((a) => `    <author>\n      <name>${a}</name>\n    </author>`).join('\n');
    return `  <entry>
    <id>http://arxiv.org/abs/${p.id}${version}</id>
    <updated>${p.published}</updated>
    <published>${p.published}</published>
    <title>${p.title}</title>
    <summary>${p.summary}</summary>
${authors}
    <link href="http://arxiv.org/abs/${p.id}${version}" rel="alternate" type="text/html"/>
    <link title="pdf" href="https://arxiv.org/pdf/${p.id}${version}.pdf" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
  </entry>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query${query.replace(/&/g, '&amp;')}" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: ${query.replace(/&/g, '&amp;')}</title>
  <id>http://arxiv.org/api/test</id>
  <updated>2026-01-01T00:00:00-05:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">${found.length}</opensearch:totalResults>
${entries.join('\n')}
</feed>
`;
}
