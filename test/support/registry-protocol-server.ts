/**
 * Just the upload and promote paths of the svc-registry HTTP protocol (the issue 8 brief), on
 * 127.0.0.1, for the svc-registry publish backend's tests until they run against the real
 * `svc registry serve`: bearer tokens (401 unknown, 403 not the owner), `POST /artifact` streamed
 * and checked against X-Svc-Sha256, id = first 16 hex, duplicates, `POST /artifact/<id>/promote`
 * with demotion refused (409).
 */
export type ProtocolRequest = { method: string; path: string; headers: Record<string, string> };

export type RegistryProtocolServer = {
  url: string;
  requests: ProtocolRequest[];
  artifacts: Map<string, { owner: string; visibility: string; sha256: string; size: number }>;
  stop(): void;
};

const RANK: Record<string, number> = { staged: 0, unlisted: 1, public: 2 };

export function startRegistryProtocolServer(tokens: Record<string, string>): RegistryProtocolServer {
  const requests: ProtocolRequest[] = [];
  const artifacts: RegistryProtocolServer['artifacts'] = new Map();
  const json = (status: number, body: unknown) => Response.json(body, { status });
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    maxRequestBodySize: 2 ** 40,
    async fetch(req) {
      const url = new URL(req.url);
      requests.push({ method: req.method, path: url.pathname + url.search, headers: Object.fromEntries(req.headers) });
      const auth = req.headers.get('authorization') ?? '';
      const user = auth.startsWith('Bearer ') ? tokens[auth.slice(7)] : undefined;
      if (!user) return json(401, { error: 'missing or unknown token' });
      if (req.method === 'POST' && url.pathname === '/artifact') {
        const hasher = new Bun.CryptoHasher('sha256');
        let size = 0;
        if (req.body) for await (const chunk of req.body) (hasher.update(chunk), (size += chunk.length));
        const sha256 = hasher.digest('hex');
        const claimed = req.headers.get('x-svc-sha256');
        if (claimed && claimed !== sha256) return json(400, { error: 'X-Svc-Sha256 does not match the body' });
        const id = sha256.slice(0, 16);
        const had = artifacts.get(id);
        if (had && had.owner !== user) return json(409, { error: `artifact ${id} belongs to another user` });
        if (had) return json(200, { id, ref: `svc://${id}`, visibility: had.visibility, sha256, size, duplicate: true });
        artifacts.set(id, { owner: user, visibility: 'staged', sha256, size });
        return json(201, { id, ref: `svc://${id}`, visibility: 'staged', sha256, size, duplicate: false });
      }
      const m = /^\/artifact\/([^/]+)\/promote$/.exec(url.pathname);
      if (req.method === 'POST' && m) {
        const id = m[1] as string;
        if (!/^[0-9a-f]{16}$/.test(id)) return json(400, { error: 'id is not 16 hex' });
        const a = artifacts.get(id);
        if (!a) return json(404, { error: `no artifact ${id}` });
        if (a.owner !== user) return json(403, { error: 'not the owner' });
        const body = (await req.json().catch(() => ({}))) as { target?: string };
        const target = body.target ?? '';
        if (target !== 'unlisted' && target !== 'public') return json(400, { error: 'target must be unlisted or public' });
        if ((RANK[target] ?? 0) < (RANK[a.visibility] ?? 0)) return json(409, { error: `cannot demote ${a.visibility} to ${target}` });
        a.visibility = target;
        return json(200, { id, visibility: target });
      }
      return json(404, { error: 'not found' });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, artifacts, stop: () => server.stop(true) };
}
