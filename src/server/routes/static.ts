import { Elysia } from 'elysia';
import memoryPage from '../../../ui/memory.html' with { type: 'text' };
import { STATIC_ASSETS } from '../../../ui/static/assets.ts';
import { BinaryFileError, locateSourceFile, readSourceText, renderSourcePage } from '../../core/checkpoint/source-view.ts';
import { InputError, NotFoundError, oneLine } from '../../core/errors.ts';
import { servedExperimentsDir } from '../../core/checkpoint/files-node.ts';
import type { ServerContext } from '../context.ts';
import { contentType } from '../content-type.ts';
import { HttpError } from '../../http/response.ts';
import { decodeUrlPart } from '../../http/url-part.ts';
import { PathQuery } from '../../schema/dashboard-api.ts';

/** The source viewer shows untrusted text: nothing on its page may load or run. */
const SOURCE_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'";

/** Static and frontend: embedded UI assets, the memory inspector page, the source viewer. */
export const staticRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'static' })
    .get('/static/*', ({ params }) => {
      const name = assetName(params['*']);
      const file = Object.hasOwn(STATIC_ASSETS, name) ? STATIC_ASSETS[name] : undefined;
      if (file === undefined) throw new NotFoundError(`no static asset '${name}'`);
      return new Response(Bun.file(file), { headers: { 'content-type': contentType(name) } });
    })
    .get('/memory/*', () => new Response(memoryPage as unknown as string, { headers: { 'content-type': 'text/html; charset=utf-8' } }))
    .get(
      '/codefile',
      ({ query }) => {
        const dir = ctx.requireActive();
        const file = locateSourceFile(query.path, { checkpoint: dir, experiments: () => servedExperimentsDir(dir) });
        let text: string;
        try {
          text = readSourceText(file);
        } catch (err) {
          if (err instanceof BinaryFileError) throw new HttpError(415, oneLine(err));
          throw err;
        }
        return new Response(renderSourcePage(file, text), {
          headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': SOURCE_PAGE_CSP, 'x-content-type-options': 'nosniff' },
        });
      },
      { query: PathQuery },
    );

/** The asset name of a /static/ path; assets are a flat table, so `..`, slashes of any spelling and NUL are refused. */
function assetName(raw: string): string {
  const name = decodeUrlPart(raw, 'static path');
  if (name.includes('..') || name.includes('\\') || name.includes('\0')) throw new InputError(`static path '${raw}' is not allowed`, 'assets are served by name only');
  return name;
}
