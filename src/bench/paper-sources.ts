import { isAbsolute } from 'node:path';
import type { Env } from '../core/config/env-vars.ts';
import { InputError } from '../core/errors.ts';
import { resolveInside } from '../core/paths.ts';
import type { ImportBody } from '../schema/bench-api.ts';
import { fetchArxivPdf } from './arxiv-pdf.ts';
import { normalizeArxivId } from './arxiv-id.ts';
import { checkPdf, PDF_FILES, type PdfField, type PdfSource } from './paper-pdfs.ts';

/** Where an import finds what it needs beyond its body: the uploads directory of the active checkpoint. */
export type ImportContext = { uploadsDir?: string | null };

/**
 * The PDFs an import brings, every one checked before anything is written. `pdf_path`,
 * `ad_pdf_path` and `ae_pdf_path` are absolute paths. Without `pdf_path` the paper comes from its
 * source: `local`, the source is the PDF's absolute path (a relative one is refused, as pdf_path's
 * is); `upload`, the source is a file the dashboard's upload stored (`uploads/<name>` of the
 * active checkpoint) or an absolute path;
 * `arxiv`, the PDF is fetched from arXiv (SVC_ARXIV_API_BASE); `doi`, there is none, and the
 * paper is registered without one (runs refuse it until a PDF is imported with overwrite).
 */
export async function importPdfs(body: ImportBody, env: Env, ctx: ImportContext): Promise<PdfSource[]> {
  const pdfs: PdfSource[] = [];
  for (const field of Object.keys(PDF_FILES) as PdfField[]) {
    const path = body[field];
    if (path !== undefined && path !== '') pdfs.push({ name: PDF_FILES[field], from: checkPdf(path, field) });
  }
  if (pdfs.some((p) => p.name === 'paper.pdf')) return pdfs;
  const paper = await paperFromSource(body, env, ctx);
  return paper === null ? pdfs : [{ name: 'paper.pdf', from: paper }, ...pdfs];
}

async function paperFromSource(body: ImportBody, env: Env, ctx: ImportContext): Promise<string | Uint8Array | null> {
  const source = body.source.trim();
  switch (body.source_type) {
    case 'local':
      return checkPdf(source, 'source');
    case 'upload':
      return checkPdf(uploadPath(source, ctx), 'source');
    case 'arxiv':
      return await fetchArxivPdf(normalizeArxivId(source), env);
    case 'doi':
      return null;
  }
}

function uploadPath(source: string, ctx: ImportContext): string {
  if (isAbsolute(source)) return source;
  if (!ctx.uploadsDir) throw new InputError(`upload '${source}' cannot be found: there is no active checkpoint holding uploads`, 'select a checkpoint, or give the absolute path of the uploaded file');
  return resolveInside(ctx.uploadsDir, source.replace(/^uploads\//, ''), 'upload');
}
