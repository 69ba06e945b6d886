import { readFileSync } from 'node:fs';
/**
 * A Zenodo records API server on 127.0.0.1 speaking the parts svc clone calls:
 * `GET /api/records/{id}` (the record JSON: `id`, `doi`, `metadata`, and `files` each with `id`,
 * `key`, `size`, `checksum` "md5:…" and `links.self` pointing at the file's content) and
 * `GET /api/records/{id}/files/{key}/content` (the bytes). Unknown records: 404 `{status, message}`.
 */
export type ZenodoRecord = { id: number; files: { key: string; file: string }[] };

export type ZenodoServer = { url: string; requests: { path: string; headers: Record<string, string> }[]; stop(): void };

export function startZenodoServer(records: ZenodoRecord[]): ZenodoServer {
  const requests: ZenodoServer['requests'] = [];
  const notFound = () => Response.json({ status: 404, message: 'The persistent identifier does not exist.' }, { status: 404 });
  const md5 = (file: string) => new Bun.CryptoHasher('md5').update(readFileSync(file)).digest('hex');
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      requests.push({ path: url.pathname, headers: Object.fromEntries(req.headers) });
      const base: string = url.origin;
      let m = /^\/api\/records\/(\d+)$/.exec(url.pathname);
      if (m) {
        const rec = records.find((r) => String(r.id) === m?.[1]);
        if (!rec) return notFound();
        return Response.json({
          id: rec.id,
          recid: String(rec.id),
          doi: `10.5281/zenodo.${rec.id}`,
          doi_url: `https://doi.org/10.5281/zenodo.${rec.id}`,
          metadata: { title: 'bundle', publication_date: '2026-01-01', resource_type: { type: 'software' } },
          files: rec.files.map((f, i) => ({
            id: `file-${i + 1}`,
            key: f.key,
            size: Bun.file(f.file).size,
            checksum: `md5:${md5(f.file)}`,
            links: { self: `${base}/api/records/${rec.id}/files/${encodeURIComponent(f.key)}/content` },
          })),
          links: { self: `${base}/api/records/${rec.id}` },
        });
      }
      m = /^\/api\/records\/(\d+)\/files\/([^/]+)\/content$/.exec(url.pathname);
      if (m) {
        const rec = records.find((r) => String(r.id) === m?.[1]);
        const f = rec?.files.find((x) => x.key === decodeURIComponent(m?.[2] as string));
        if (!f) return notFound();
        return new Response(Bun.file(f.file), { headers: { 'content-type': 'application/octet-stream' } });
      }
      return notFound();
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => void server.stop(true) };
}
