import { Type as T } from '@sinclair/typebox';
import { InputError } from '../../core/errors.ts';
import { defineTool } from '../../mcp/tool.ts';
import { accessPolicy, UnreachableError, webUrl } from '../../web/access-policy.ts';
import { type FetchedPage, fetchPage } from '../../web/fetch-page.ts';
import { pageText } from '../../web/page-text.ts';
import { skillConfig } from '../skill-config.ts';

/** The most a page may send: far above an article's HTML or a paper's PDF, far below what fills memory. */
export const MAX_PAGE_BYTES = 10 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;
const MAX_CHARS = 200_000;

export const fetchUrlTool = defineTool({
  name: 'fetch_url',
  description:
    `Fetch a web page (http or https, redirects followed) and return its text: HTML reduced to its readable text, a PDF's text, plain text as it is, at most max_chars characters of it. ` +
    `Returns {url (after redirects), status, content_type, kind (html, text, pdf, binary), title, text, chars (the whole text's length), truncated, redirects?, note?}. ` +
    `Only the public internet: loopback, link-local and private addresses (this machine, the local network) are refused, also behind a name or a redirect, unless the workflow allows them (web.allow_private, web.allow_hosts). ` +
    `Pages over ${MAX_PAGE_BYTES / 1024 / 1024} MB are refused. A host that cannot be reached gives no text and a note, not an error.`,
  params: T.Object(
    {
      url: T.String({ description: 'the http:// or https:// address' }),
      max_chars: T.Integer({ default: 8000, description: `characters of text at most, 1 to ${MAX_CHARS}` }),
    },
    { additionalProperties: false },
  ),
  timeoutS: FETCH_TIMEOUT_MS / 1000 + 60,
  async run(args, ctx) {
    if (!Number.isInteger(args.max_chars) || args.max_chars < 1 || args.max_chars > MAX_CHARS) throw new InputError(`fetch_url: max_chars must be an integer from 1 to ${MAX_CHARS}, got ${args.max_chars}`);
    const url = webUrl(args.url);
    const policy = accessPolicy(skillConfig(ctx.env));
    let page: FetchedPage;
    try {
      page = await fetchPage(url, { policy, maxBytes: MAX_PAGE_BYTES, timeoutMs: FETCH_TIMEOUT_MS, signal: ctx.signal });
    } catch (err) {
      if (!(err instanceof UnreachableError)) throw err;
      return { url: url.href, status: null, content_type: '', kind: 'text', title: '', text: '', chars: 0, truncated: false, offline: true, note: `${err.message}; no text was fetched` };
    }
    const content = await pageText(page, ctx.env);
    const notes: string[] = [];
    if (page.status >= 400) notes.push(`the server answered ${page.status}: the text is its error page`);
    if (content.kind === 'binary') notes.push(`${page.contentType || 'the content'} is not text, so there is none to show`);
    return {
      url: page.url,
      status: page.status,
      content_type: page.contentType,
      kind: content.kind,
      title: content.title,
      text: content.text.slice(0, args.max_chars),
      chars: content.text.length,
      truncated: content.text.length > args.max_chars,
      ...(content.pages !== undefined ? { pages: content.pages } : {}),
      ...(page.redirects.length ? { redirects: page.redirects } : {}),
      ...(notes.length ? { note: notes.join('; ') } : {}),
    };
  },
});
