import type { Serve } from 'bun';
import { contentType } from './content-type.ts';

/**
 * The routes of the page build.ts bundled: `/` answers its index.html, and each other file is
 * served at its own name. Those names carry a hash of their content, so a browser may keep them;
 * the page itself is asked again each time, to pick up a new binary's files.
 */
export function embeddedPage(files: Record<string, string>): Serve.Routes<undefined, string> {
  const routes: Record<string, { GET: () => Response }> = {};
  for (const [name, path] of Object.entries(files)) {
    const page = name === 'index.html';
    const headers = { 'content-type': contentType(name), 'cache-control': page ? 'no-cache' : 'public, max-age=31536000, immutable' };
    routes[page ? '/' : `/${name}`] = { GET: () => new Response(Bun.file(path), { headers }) };
  }
  return routes as Serve.Routes<undefined, string>;
}
