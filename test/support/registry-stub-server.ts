/**
 * A stand-in for the registry's read side (the brief's protocol), used only until the real server
 * (src/registry/, built in parallel) is in this tree: `GET /artifact/<id>` with
 * `Authorization: Bearer svc_…`, headers X-Svc-Sha256 / X-Svc-Visibility; staged served to the
 * owner only (403 otherwise), private-token to any valid token, unlisted/public to anyone;
 * no or unknown token where one is needed 401; unknown id 404; a malformed id 400.
 * Replace its uses with the real `svc registry serve` once available.
 */
export type StubArtifact = { id: string; file: string; visibility: 'staged' | 'unlisted' | 'public' | 'private-token'; owner: string };

export type RegistryStub = { url: string; requests: { path: string; auth: string | null }[]; stop(): void };

export function startRegistryStub(artifacts: StubArtifact[], tokens: Record<string, string>, opts: { stallMs?: number } = {}): RegistryStub {
  const requests: RegistryStub['requests'] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const auth = req.headers.get('authorization');
      requests.push({ path: url.pathname, auth });
      if (url.pathname === '/healthz') return Response.json({ ok: true });
      const m = /^\/artifact\/([^/]+)$/.exec(url.pathname);
      if (!m || req.method !== 'GET') return Response.json({ error: 'not found' }, { status: 404 });
      if (!/^[0-9a-f]{16}$/.test(m[1] as string)) return Response.json({ error: 'id must be 16 hex' }, { status: 400 });
      const a = artifacts.find((x) => x.id === m[1]);
      if (!a) return Response.json({ error: 'unknown artifact' }, { status: 404 });
      const token = auth?.startsWith('Bearer ') ? auth.slice(7) : null;
      const user = token === null ? null : (tokens[token] ?? undefined);
      if (user === undefined) return Response.json({ error: 'invalid token' }, { status: 401 });
      if (a.visibility === 'staged' || a.visibility === 'private-token') {
        if (user === null) return Response.json({ error: 'bearer token required' }, { status: 401 });
        if (a.visibility === 'staged' && user !== a.owner) return Response.json({ error: 'staged artifact: owner only' }, { status: 403 });
      }
      if (opts.stallMs) await Bun.sleep(opts.stallMs);
      const f = Bun.file(a.file);
      const sha = new Bun.CryptoHasher('sha256').update(await f.arrayBuffer()).digest('hex');
      return new Response(f, { headers: { 'content-type': 'application/gzip', 'x-svc-sha256': sha, 'x-svc-visibility': a.visibility } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => void server.stop(true) };
}
