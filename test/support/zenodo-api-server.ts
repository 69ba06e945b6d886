/**
 * The parts of Zenodo's REST deposition API the hosting-doi backend calls, on 127.0.0.1, with
 * Zenodo's JSON shapes: create a deposition (POST /api/deposit/depositions, 201, links.bucket,
 * prereserved DOI), PUT a file into its bucket (PUT /api/files/<bucket>/<name>), set its metadata
 * (PUT /api/deposit/depositions/<id>; 400 "Validation error." naming the missing fields), publish it
 * (POST .../actions/publish, 202, DOI 10.5281/zenodo.<id>), discard it (DELETE, unpublished only),
 * and read a published record and its files (GET /api/records/<id>, .../files/<name>/content).
 * Tokens as `Authorization: Bearer` or `?access_token=`; unknown 401, a token without deposit
 * scope 403, another user's deposition 403.
 */
import { type ApiServer, serveApi } from './api-server.ts';

export type { ApiRequest as ZenodoRequest } from './api-server.ts';

type File = { key: string; size: number; bytes: Uint8Array; checksum: string };
type Dep = { id: number; owner: string; bucket: string; submitted: boolean; metadata: Record<string, unknown>; files: File[]; created: string; doi: string | null };

export type ZenodoApiServer = ApiServer & { depositions: Dep[] };

export function startZenodoApiServer(opts: { tokens: Record<string, { user: string; write: boolean }> }): ZenodoApiServer {
  const depositions: Dep[] = [];
  let nextId = 4000000;
  let base = '';
  const json = (status: number, body: unknown) => Response.json(body, { status });
  const err = (status: number, message: string, errors?: unknown) => json(status, { status, message, ...(errors ? { errors } : {}) });
  const fileJson = (d: Dep, f: File) => ({ key: f.key, mimetype: 'application/octet-stream', checksum: f.checksum, size: f.size, version_id: `v-${d.id}-${f.key}`, created: d.created, updated: d.created, is_head: true, delete_marker: false, links: { self: `${base}/api/files/${d.bucket}/${f.key}`, version: `${base}/api/files/${d.bucket}/${f.key}?versionId=v`, uploads: `${base}/api/files/${d.bucket}/${f.key}?uploads` } });
  const depJson = (d: Dep) => {
    const self = `${base}/api/deposit/depositions/${d.id}`;
    return {
      id: d.id,
      conceptrecid: String(d.id - 1),
      record_id: d.id,
      created: d.created,
      modified: d.created,
      owner: 1,
      state: d.submitted ? 'done' : 'unsubmitted',
      submitted: d.submitted,
      title: (d.metadata.title as string) ?? '',
      ...(d.doi ? { doi: d.doi, doi_url: `https://doi.org/${d.doi}` } : {}),
      metadata: { ...d.metadata, prereserve_doi: { doi: `10.5281/zenodo.${d.id}`, recid: d.id } },
      files: d.files.map((f) => ({ id: `${d.id}-${f.key}`, filename: f.key, filesize: f.size, checksum: f.checksum.replace(/^md5:/, ''), links: { self: `${self}/files/${d.id}-${f.key}`, download: `${base}/api/records/${d.id}/files/${f.key}/content` } })),
      links: {
        self,
        html: `${base}/deposit/${d.id}`,
        badge: `${base}/badge/doi/.svg`,
        files: `${self}/files`,
        bucket: `${base}/api/files/${d.bucket}`,
        latest_draft: self,
        latest_draft_html: `${base}/deposit/${d.id}`,
        publish: `${self}/actions/publish`,
        edit: `${self}/actions/edit`,
        discard: `${self}/actions/discard`,
        newversion: `${self}/actions/newversion`,
        registerconceptdoi: `${self}/actions/registerconceptdoi`,
        ...(d.submitted ? { record: `${base}/api/records/${d.id}`, record_html: `${base}/records/${d.id}`, doi: `https://doi.org/${d.doi}`, latest: `${base}/api/records/${d.id}/versions/latest`, latest_html: `${base}/records/${d.id}/latest` } : {}),
      },
    };
  };
  const api = serveApi(
    async (req, url) => {
      const path = url.pathname;
      // public records
      let m = /^\/api\/records\/(\d+)(?:\/files\/([^/]+)\/content)?$/.exec(path);
      if (req.method === 'GET' && m) {
        const d = depositions.find((x) => x.id === Number(m?.[1]) && x.submitted);
        if (!d) return err(404, 'PID does not exist.');
        if (!m[2]) return json(200, { id: d.id, doi: d.doi, doi_url: `https://doi.org/${d.doi}`, metadata: d.metadata, files: d.files.map((f) => ({ key: f.key, size: f.size, checksum: f.checksum, links: { self: `${base}/api/records/${d.id}/files/${f.key}/content` } })), links: { self: `${base}/api/records/${d.id}`, html: `${base}/records/${d.id}`, doi: `https://doi.org/${d.doi}` } });
        const f = d.files.find((x) => x.key === decodeURIComponent(m?.[2] as string));
        return f ? new Response(f.bytes, { headers: { 'content-type': 'application/octet-stream' } }) : err(404, 'The requested URL was not found on the server.');
      }
      const auth = req.headers.get('authorization') ?? '';
      const token = /^Bearer (.+)$/.exec(auth)?.[1] ?? url.searchParams.get('access_token') ?? undefined;
      const who = token !== undefined ? opts.tokens[token] : undefined;
      if (!who) return err(401, 'The server could not verify that you are authorized to access the URL requested. You either supplied the wrong credentials (e.g. a bad password), or your browser doesn\'t understand how to supply the credentials required.');
      if (!who.write) return err(403, "You don't have the permission to access the requested resource. It is either read-protected or not readable by the server.");
      if (req.method === 'POST' && path === '/api/deposit/depositions') {
        const id = nextId++;
        const d: Dep = { id, owner: who.user, bucket: crypto.randomUUID(), submitted: false, metadata: {}, files: [], created: new Date().toISOString(), doi: null };
        depositions.push(d);
        return json(201, depJson(d));
      }
      m = /^\/api\/files\/([0-9a-f-]+)\/([^/]+)$/.exec(path);
      if (req.method === 'PUT' && m) {
        const d = depositions.find((x) => x.bucket === m?.[1]);
        if (!d) return err(404, 'Bucket does not exist.');
        if (d.owner !== who.user) return err(403, "You don't have the permission to access the requested resource.");
        if (d.submitted) return err(403, 'Bucket is locked.');
        const bytes = new Uint8Array(await req.arrayBuffer());
        const key = decodeURIComponent(m[2] as string);
        const f: File = { key, size: bytes.length, bytes, checksum: `md5:${new Bun.CryptoHasher('md5').update(bytes).digest('hex')}` };
        d.files = [...d.files.filter((x) => x.key !== key), f];
        return json(201, fileJson(d, f));
      }
      m = /^\/api\/deposit\/depositions\/(\d+)(\/actions\/publish)?$/.exec(path);
      const d = m ? depositions.find((x) => x.id === Number(m?.[1])) : undefined;
      if (!m || !d) return err(404, 'PID does not exist.');
      if (d.owner !== who.user) return err(403, "You don't have the permission to access the requested resource.");
      if (req.method === 'GET' && !m[2]) return json(200, depJson(d));
      if (req.method === 'PUT' && !m[2]) {
        if (d.submitted) return err(403, 'Invalid action.');
        const b = ((await req.json().catch(() => null)) ?? {}) as { metadata?: Record<string, unknown> };
        const md = b.metadata ?? {};
        const missing = ['upload_type', 'title', 'creators', 'description'].filter((k) => md[k] === undefined || md[k] === '' || (Array.isArray(md[k]) && (md[k] as unknown[]).length === 0));
        if (missing.length) return err(400, 'Validation error.', missing.map((field) => ({ field: `metadata.${field}`, messages: ['Field may not be null.'] })));
        d.metadata = md;
        return json(200, depJson(d));
      }
      if (req.method === 'DELETE' && !m[2]) {
        if (d.submitted) return err(403, 'Invalid action.');
        depositions.splice(depositions.indexOf(d), 1);
        return new Response(null, { status: 204 });
      }
      if (req.method === 'POST' && m[2]) {
        if (d.submitted) return err(400, 'Validation error.', [{ message: 'Deposition is already published.' }]);
        if (d.files.length === 0) return err(400, 'Validation error.', [{ message: 'Minimum one file must be provided.', code: 10 }]);
        if (!d.metadata.title) return err(400, 'Validation error.', [{ field: 'metadata.title', messages: ['Field may not be null.'] }]);
        d.submitted = true;
        d.doi = `10.5281/zenodo.${d.id}`;
        return json(202, depJson(d));
      }
      return err(405, 'The method is not allowed for the requested URL.');
    },
    (status) => err(status, 'Internal server error.'),
  );
  base = api.url;
  return { ...api, depositions };
}
