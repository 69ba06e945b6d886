import type { Env } from '../core/config/env-vars.ts';
import { pdfText } from '../paper/pdf-text.ts';
import type { FetchedPage } from './fetch-page.ts';
import { htmlToText } from './html-text.ts';

export type PageText = { kind: 'html' | 'text' | 'pdf' | 'binary'; title: string; text: string; pages?: number };

/**
 * The text of a fetched page, by what it is: HTML reduced to its readable text, a PDF's text
 * (pdftotext), text as it is; anything else is binary and has none. The type is the server's
 * Content-Type, else what the first bytes show.
 */
export async function pageText(page: FetchedPage, env: Env): Promise<PageText> {
  const [mime = '', ...params] = page.contentType.toLowerCase().split(';').map((s) => s.trim());
  const head = Buffer.from(page.body.subarray(0, 1024)).toString('latin1');
  if (mime === 'application/pdf' || head.startsWith('%PDF-')) {
    const pdf = await pdfText({ bytes: page.body }, page.url, env);
    return { kind: 'pdf', title: '', text: pdf.text.replace(/\f/g, '\n\n').trim(), pages: pdf.pages };
  }
  const isHtml = mime === 'text/html' || mime === 'application/xhtml+xml' || (!mime && /^\s*(<!doctype html|<html)/i.test(head));
  const isText = isHtml || mime.startsWith('text/') || /[/+](json|xml|javascript|x-yaml|yaml)$/.test(mime) || (!mime && !head.includes('\0'));
  if (!isText) return { kind: 'binary', title: '', text: '' };
  const charset = params.find((p) => p.startsWith('charset='))?.slice(8).replace(/"/g, '') ?? (isHtml ? /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1] : undefined);
  const text = decode(page.body, charset);
  if (!isHtml) return { kind: 'text', title: '', text };
  return { kind: 'html', ...(await htmlToText(text)) };
}

function decode(bytes: Uint8Array, charset: string | undefined): string {
  try {
    return new TextDecoder((charset ?? 'utf-8') as ConstructorParameters<typeof TextDecoder>[0]).decode(bytes);
  } catch {
    // a charset the decoder does not know: most of the web is UTF-8 anyway
    return new TextDecoder('utf-8').decode(bytes);
  }
}
