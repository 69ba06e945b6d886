/**
 * A GitHub Releases API server on 127.0.0.1 speaking the parts svc calls:
 * `GET /repos/{owner}/{repo}/releases/latest` (the release JSON with its `assets`, each with
 * `name`, `size`, `content_type`, `url` and `browser_download_url`; 404 `{message: "Not Found"}`
 * when the repository has no release) and the asset download at its browser_download_url
 * (`/{owner}/{repo}/releases/download/{tag}/{name}`, answered with a 302 to the asset's storage as
 * GitHub does).
 */
export type Release = { owner: string; repo: string; tag: string; assets: { name: string; file: string }[] };

export type GitHubReleasesServer = { url: string; requests: { path: string; headers: Record<string, string> }[]; stop(): void };

export function startGitHubReleasesServer(releases: Release[]): GitHubReleasesServer {
  const requests: GitHubReleasesServer['requests'] = [];
  const notFound = () => Response.json({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest/releases/releases#get-the-latest-release', status: '404' }, { status: 404 });
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      requests.push({ path: url.pathname, headers: Object.fromEntries(req.headers) });
      const base: string = url.origin;
      let m = /^\/repos\/([^/]+)\/([^/]+)\/releases\/latest$/.exec(url.pathname);
      if (m) {
        const rel = releases.find((r) => r.owner === m?.[1] && r.repo === m?.[2]);
        if (!rel) return notFound();
        return Response.json({
          url: `${base}/repos/${rel.owner}/${rel.repo}/releases/1`,
          html_url: `${base}/${rel.owner}/${rel.repo}/releases/tag/${rel.tag}`,
          id: 1,
          tag_name: rel.tag,
          name: rel.tag,
          draft: false,
          prerelease: false,
          created_at: '2026-01-01T00:00:00Z',
          published_at: '2026-01-01T00:00:00Z',
          assets: rel.assets.map((a, i) => ({
            url: `${base}/repos/${rel.owner}/${rel.repo}/releases/assets/${i + 1}`,
            id: i + 1,
            name: a.name,
            label: '',
            content_type: 'application/gzip',
            state: 'uploaded',
            size: Bun.file(a.file).size,
            browser_download_url: `${base}/${rel.owner}/${rel.repo}/releases/download/${rel.tag}/${a.name}`,
          })),
        });
      }
      m = /^\/([^/]+)\/([^/]+)\/releases\/download\/([^/]+)\/([^/]+)$/.exec(url.pathname);
      if (m) {
        const rel = releases.find((r) => r.owner === m?.[1] && r.repo === m?.[2] && r.tag === m?.[3]);
        const asset = rel?.assets.find((a) => a.name === m?.[4]);
        if (!asset) return notFound();
        return new Response(null, { status: 302, headers: { location: `${base}/storage/${encodeURIComponent(asset.file)}` } });
      }
      m = /^\/storage\/(.+)$/.exec(url.pathname);
      if (m) {
        const file = decodeURIComponent(m[1] as string);
        if (!releases.some((r) => r.assets.some((a) => a.file === file))) return notFound();
        return new Response(Bun.file(file), { headers: { 'content-type': 'application/octet-stream' } });
      }
      return notFound();
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => void server.stop(true) };
}
