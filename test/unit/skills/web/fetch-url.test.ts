import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fetchUrlTool, MAX_PAGE_BYTES } from '../../../../src/skills/web/fetch-url.ts';
import { lacks } from '../../../support/components.ts';
import { closedPort, rejection } from '../../llm/helpers.ts';
import { callTool } from '../coding/tool-call.ts';
import { webSandbox } from './web-fixture.ts';

const { box, env } = webSandbox();

type Seen = { path: string; host: string | null };

/** A local server standing for the dashboard or the memory server: it records every request that reaches it. */
function startLocal(handler: (req: Request) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      seen.push({ path: new URL(req.url).pathname, host: req.headers.get('host') });
      return handler(req);
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, port: server.port as number, seen, stop: () => server.stop(true) };
}

let dashboard: ReturnType<typeof startLocal>;
let site: ReturnType<typeof startLocal>;
let pdf: Uint8Array | null = null;

beforeEach(() => {
  dashboard = startLocal(() => Response.json({ secret: 'the dashboard state' }));
  site = startLocal((req) => {
    const path = new URL(req.url).pathname;
    if (path === '/article') return new Response(ARTICLE, { headers: { 'content-type': 'text/html; charset=utf-8' } });
    if (path === '/latin1') return new Response(new Uint8Array([0x3c, 0x70, 0x3e, 0x63, 0x61, 0x66, 0xe9, 0x3c, 0x2f, 0x70, 0x3e]), { headers: { 'content-type': 'text/html; charset=iso-8859-1' } });
    if (path === '/plain') return new Response('line one\nline two\n', { headers: { 'content-type': 'text/plain' } });
    if (path === '/missing') return new Response('<html><title>Not Found</title><p>No such page</p></html>', { status: 404, headers: { 'content-type': 'text/html' } });
    if (path === '/image') return new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), { headers: { 'content-type': 'image/png' } });
    if (path === '/paper.pdf' && pdf) return new Response(pdf, { headers: { 'content-type': 'application/pdf' } });
    if (path === '/huge') return new Response(new Uint8Array(MAX_PAGE_BYTES + 1024).fill(0x61), { headers: { 'content-type': 'text/plain' } });
    if (path === '/to-dashboard') return Response.redirect(`${dashboard.url}/state`, 302);
    if (path === '/to-localhost') return Response.redirect(`http://localhost:${dashboard.port}/api/settings`, 307);
    if (path === '/to-file') return new Response(null, { status: 302, headers: { location: 'file:///etc/passwd' } });
    if (path === '/loop') return new Response(null, { status: 302, headers: { location: '/loop' } });
    if (path === '/hop') return new Response(null, { status: 301, headers: { location: '/article' } });
    return new Response('?', { status: 500 });
  });
});
afterEach(() => {
  dashboard.stop();
  site.stop();
});

const ARTICLE = `<!doctype html><html><head><title>Cache Tiling &amp; You</title><meta charset="utf-8"><style>p { color: red }</style>
<script>window.secret = 1;</script></head><body><nav>Home</nav><h1>Cache tiling</h1><p>Tiles&nbsp;fit the <b>L1</b> cache &mdash; mostly.</p>
<ul><li>first</li><li>second</li></ul><noscript>enable js</noscript><p>caf&eacute; &#x2713;</p></body></html>`;

/** The environment that lets fetch_url reach the test site (only it, on its port) and nothing else here. */
const siteEnv = () => env({ SVC_WEB_ALLOW_HOSTS: `127.0.0.1:${site.port}` });
const fetchUrl = (args: Record<string, unknown>, e = siteEnv()) => callTool(fetchUrlTool, args, e);

describe('fetch_url refuses this machine and the local network by default', () => {
  test('the dashboard or memory server on loopback is never sent a request, however its address is written', async () => {
    for (const url of [`${dashboard.url}/state`, `http://localhost:${dashboard.port}/state`, `http://2130706433:${dashboard.port}/`, `http://127.1:${dashboard.port}/`, `http://[::ffff:127.0.0.1]:${dashboard.port}/`, `http://0.0.0.0:${dashboard.port}/`]) {
      const err = await rejection(fetchUrl({ url }, env()));
      expect(err.message).toMatch(/^fetch_url refuses /);
    }
    expect(dashboard.seen).toEqual([]);
  });

  test('a redirect from an allowed page to a private address is refused before anything is sent there', async () => {
    for (const path of ['/to-dashboard', '/to-localhost']) {
      const err = await rejection(fetchUrl({ url: `${site.url}${path}` }));
      expect(err.message).toMatch(new RegExp(`^fetch_url refuses (127\\.0\\.0\\.1|localhost):${dashboard.port}: `));
    }
    expect(dashboard.seen).toEqual([]);
  });

  test('web.allow_private in the workflow, or SVC_WEB_ALLOW_PRIVATE, opens it', async () => {
    const viaEnv = await fetchUrl({ url: `${dashboard.url}/state` }, env({ SVC_WEB_ALLOW_PRIVATE: '1' }));
    expect(viaEnv).toMatchObject({ status: 200, kind: 'text', text: '{"secret":"the dashboard state"}' });
    writeFileSync(join(box().checkpoint, 'workflow.yaml'), 'web:\n  allow_private: true\n');
    const viaWorkflow = await fetchUrl({ url: `http://localhost:${dashboard.port}/state` }, env());
    expect(viaWorkflow.status).toBe(200);
    expect(dashboard.seen).toHaveLength(2);
    // the variable wins over the workflow
    const off = await rejection(fetchUrl({ url: `${dashboard.url}/state` }, env({ SVC_WEB_ALLOW_PRIVATE: '0' })));
    expect(off.message).toMatch(/^fetch_url refuses/);
    expect(dashboard.seen).toHaveLength(2);
  });

  test('a name is connected to at the address that was checked, with its own Host header', async () => {
    const r = await fetchUrl({ url: `http://localhost:${site.port}/plain` }, env({ SVC_WEB_ALLOW_HOSTS: `localhost:${site.port}` }));
    expect(r.text).toBe('line one\nline two\n');
    expect(site.seen.at(-1)).toEqual({ path: '/plain', host: `localhost:${site.port}` });
  });
});

describe('fetch_url reads pages', () => {
  test('HTML becomes its readable text: no script, style or noscript, a line per block, entities decoded', async () => {
    const r = await fetchUrl({ url: `${site.url}/article` });
    expect(r).toMatchObject({ url: `${site.url}/article`, status: 200, content_type: 'text/html; charset=utf-8', kind: 'html', title: 'Cache Tiling & You', truncated: false });
    expect(r.text).toBe('Home\nCache tiling\nTiles fit the L1 cache — mostly.\nfirst\nsecond\ncafé ✓');
    expect(r.chars).toBe(r.text.length);
    expect(r.note).toBeUndefined();
  });

  test('max_chars cuts the text and says so; redirects are followed and listed', async () => {
    const r = await fetchUrl({ url: `${site.url}/hop`, max_chars: 12 });
    expect(r).toMatchObject({ url: `${site.url}/article`, text: 'Home\nCache t', truncated: true, redirects: [`${site.url}/article`] });
    expect(r.chars).toBeGreaterThan(12);
  });

  test('a declared charset is decoded; an error page is text with a note; a binary has none', async () => {
    expect((await fetchUrl({ url: `${site.url}/latin1` })).text).toBe('café');
    const missing = await fetchUrl({ url: `${site.url}/missing` });
    expect(missing).toMatchObject({ status: 404, title: 'Not Found', text: 'No such page', note: 'the server answered 404: the text is its error page' });
    const image = await fetchUrl({ url: `${site.url}/image` });
    expect(image).toMatchObject({ status: 200, kind: 'binary', text: '', note: 'image/png is not text, so there is none to show' });
  });

  test.skipIf(lacks('latex'))('a PDF is read with pdftotext', async () => {
    const dir = join(box().dir, 'pdf');
    mkdirSync(dir);
    writeFileSync(join(dir, 'p.tex'), '\\documentclass{article}\\begin{document}Tiled kernels run faster.\\newpage Page two.\\end{document}\n');
    const made = Bun.spawnSync(['pdflatex', '-interaction=nonstopmode', 'p.tex'], { cwd: dir, stdout: 'ignore', stderr: 'ignore' });
    expect(made.exitCode).toBe(0);
    pdf = readFileSync(join(dir, 'p.pdf'));
    const r = await fetchUrl({ url: `${site.url}/paper.pdf` });
    expect(r).toMatchObject({ kind: 'pdf', pages: 2, truncated: false });
    expect(r.text).toContain('Tiled kernels run faster.');
    expect(r.text).toContain('Page two.');
  });

  test('a body over the cap is refused; too many redirects, or one to another scheme, too', async () => {
    expect((await rejection(fetchUrl({ url: `${site.url}/huge` }))).message).toBe(`${site.url}/huge sent more than ${MAX_PAGE_BYTES / 1024 / 1024} MB`);
    expect((await rejection(fetchUrl({ url: `${site.url}/loop` }))).message).toBe(`${site.url}/loop redirects more than 5 times`);
    expect((await rejection(fetchUrl({ url: `${site.url}/to-file` }))).message).toBe(`${site.url}/to-file redirects to file: file:///etc/passwd, which fetch_url does not fetch`);
  });

  test('a host that cannot be reached gives no text and a note, promptly', async () => {
    const port = closedPort();
    const started = Date.now();
    const r = await fetchUrl({ url: `http://127.0.0.1:${port}/x` }, env({ SVC_WEB_ALLOW_PRIVATE: 'on' }));
    expect(r).toMatchObject({ status: null, text: '', offline: true });
    expect(r.note).toMatch(new RegExp(`^127\\.0\\.0\\.1:${port} is not reachable .*; no text was fetched$`));
    expect(Date.now() - started).toBeLessThan(5000);
    const unresolved = await fetchUrl({ url: 'http://no-such-host.invalid/' }, env());
    expect(unresolved).toMatchObject({ offline: true, note: expect.stringMatching(/^no-such-host\.invalid does not resolve/) });
  });

  test('bad arguments are one-line errors naming the fix', async () => {
    expect((await rejection(fetchUrl({ url: 'not a url' }))).message).toBe("'not a url' is not a URL");
    expect((await rejection(fetchUrl({ url: 'file:///etc/passwd' }))).message).toBe('fetch_url fetches http and https only, not file');
    expect((await rejection(fetchUrl({ url: `${site.url}/article`, max_chars: 0 }))).message).toBe('fetch_url: max_chars must be an integer from 1 to 200000, got 0');
    expect((await rejection(fetchUrl({ url: `${site.url}/article` }, env({ SVC_WEB_ALLOW_PRIVATE: 'maybe' })))).message).toMatch(/web_allow_private from env SVC_WEB_ALLOW_PRIVATE must be on or off, got 'maybe'/);
  });
});
