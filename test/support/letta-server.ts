// A Letta server as far as svc's memory client talks to it: Letta's paths, shapes and limits
// (agents need a model and an embedding, lists come in pages of 50, no batch adds, no tag filter on lists, no score in search results, duplicate agent names allowed,
// blocks created apart and attached). Keeps everything in memory and counts requests per route.
type Passage = { id: string; text: string; tags: string[]; agent_id: string; created_at: string };
type Agent = { id: string; name: string; tags: string[]; created_at: string; blocks: Map<string, string> };

export type LettaServer = { url: string; requests: Map<string, number>; agents: Map<string, Agent>; stop: () => Promise<void> };

export function startLettaServer(opts: { apiKey?: string } = {}): LettaServer {
  const agents = new Map<string, Agent>();
  const passages: Passage[] = [];
  const blocks = new Map<string, { id: string; label: string; value: string }>();
  const requests = new Map<string, number>();
  let clock = Date.parse('2025-01-01T00:00:00Z');
  const now = () => new Date((clock += 1000)).toISOString();
  const json = (data: unknown, status = 200) => Response.json(data, { status });
  const missing = (what: string) => json({ detail: `${what} not found` }, 404);

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url);
      const path = url.pathname.replace(/\/$/, '');
      const route = `${req.method} ${path.replace(/(agent|passage|block)-[0-9a-f-]+/g, ':$1')}`;
      requests.set(route, (requests.get(route) ?? 0) + 1);
      if (opts.apiKey && req.headers.get('authorization') !== `Bearer ${opts.apiKey}`) return json({ detail: 'Unauthorized' }, 401);
      const body = req.method === 'POST' || req.method === 'PATCH' ? ((await req.json().catch(() => ({}))) as Record<string, any>) : {};
      const m = /^\/v1\/agents\/(agent-[^/]+)(\/.*)?$/.exec(path);
      const agent = m ? agents.get(m[1] as string) : undefined;
      const sub = m?.[2] ?? '';
      if (route === 'GET /v1/health') return json({ version: '0.16.0', status: 'ok' });
      if (route === 'POST /v1/agents') {
        if (typeof body.model !== 'string' || typeof body.embedding !== 'string') return json({ detail: 'Must specify either model or llm_config, and embedding or embedding_config' }, 422);
        const a = { id: `agent-${crypto.randomUUID()}`, name: body.name, tags: body.tags ?? [], created_at: now(), blocks: new Map() };
        agents.set(a.id, a);
        return json(agentJson(a));
      }
      if (route === 'GET /v1/agents') {
        const named = [...agents.values()].filter((a) => !url.searchParams.get('name') || a.name === url.searchParams.get('name'));
        const after = url.searchParams.get('after');
        const start = after ? named.findIndex((a) => a.id === after) + 1 : 0;
        return json(named.slice(start, start + Number(url.searchParams.get('limit') ?? 50)).map(agentJson));
      }
      if (route === 'POST /v1/blocks') {
        const b = { id: `block-${crypto.randomUUID()}`, label: body.label, value: body.value };
        blocks.set(b.id, b);
        return json(b);
      }
      if (!m) return json({ detail: 'Not Found' }, 404);
      if (!agent) return missing(`Agent ${m[1]}`);
      const mine = passages.filter((p) => p.agent_id === agent.id);
      if (req.method === 'GET' && sub === '') return json(agentJson(agent));
      if (req.method === 'DELETE' && sub === '') {
        agents.delete(agent.id);
        return json({});
      }
      if (req.method === 'POST' && sub === '/archival-memory') {
        if (typeof body.text !== 'string') return json({ detail: [{ loc: ['body', 'text'], msg: 'Field required', type: 'missing' }] }, 422);
        const p = { id: `passage-${crypto.randomUUID()}`, text: body.text, tags: body.tags ?? [], agent_id: agent.id, created_at: now() };
        passages.push(p);
        return json([p]);
      }
      if (req.method === 'GET' && sub === '/archival-memory') {
        const after = url.searchParams.get('after');
        const start = after ? mine.findIndex((p) => p.id === after) + 1 : 0;
        return json(mine.slice(start, start + Number(url.searchParams.get('limit') ?? 100)));
      }
      if (req.method === 'GET' && sub === '/archival-memory/search') {
        const tags = url.searchParams.getAll('tags');
        const words = (url.searchParams.get('query') ?? '').toLowerCase().split(/\W+/).filter(Boolean);
        const hits = mine
          .filter((p) => tags.length === 0 || p.tags.some((t) => tags.includes(t)))
          .map((p) => ({ p, s: words.filter((w) => p.text.toLowerCase().includes(w)).length }))
          .sort((a, b) => b.s - a.s)
          .slice(0, Number(url.searchParams.get('top_k') ?? 10));
        return json({ results: hits.map(({ p }) => ({ id: p.id, timestamp: p.created_at, content: p.text, tags: p.tags })), count: hits.length });
      }
      const del = /^\/archival-memory\/(.+)$/.exec(sub);
      if (req.method === 'DELETE' && del) {
        const at = passages.findIndex((p) => p.id === del[1] && p.agent_id === agent.id);
        if (at < 0) return missing(`Passage ${del[1]}`);
        passages.splice(at, 1);
        return json({});
      }
      const attach = /^\/core-memory\/blocks\/attach\/(.+)$/.exec(sub);
      if (req.method === 'PATCH' && attach) {
        const b = blocks.get(attach[1] as string);
        if (!b) return missing(`Block ${attach[1]}`);
        agent.blocks.set(b.label, b.value);
        return json(agentJson(agent));
      }
      const block = /^\/core-memory\/blocks\/(.+)$/.exec(sub);
      if (block) {
        const label = decodeURIComponent(block[1] as string);
        if (!agent.blocks.has(label)) return missing(`Block with label ${label}`);
        if (req.method === 'PATCH') agent.blocks.set(label, body.value);
        return json({ id: 'block-0', label, value: agent.blocks.get(label) });
      }
      return json({ detail: 'Not Found' }, 404);
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, agents, stop: () => server.stop(true) };
}

function agentJson(a: Agent) {
  return { id: a.id, name: a.name, tags: a.tags, created_at: a.created_at, memory: { blocks: [...a.blocks].map(([label, value]) => ({ label, value })) } };
}
