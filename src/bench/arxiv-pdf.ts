import type { Env } from '../core/config/env-vars.ts';
import { NotFoundError, UnavailableError, UpstreamAnswerError } from '../core/errors.ts';
import { fetchWithStallTimeout, readCappedBytes } from '../core/outbound.ts';
import { arxivBase } from './arxiv.ts';
import { isPdfBytes } from './paper-pdfs.ts';

/** Far above any paper arXiv serves (its submissions are capped at 50 MB). */
const MAX_PDF_BYTES = 200 * 1024 * 1024;
const STALL_MS = 60_000;

/** The PDF of arXiv paper `id` (normalized), fetched from `<SVC_ARXIV_API_BASE>/pdf/<id>`. */
export async function fetchArxivPdf(id: string, env: Env): Promise<Uint8Array> {
  const url = `${arxivBase(env)}/pdf/${id}`;
  const hint = 'give pdf_path, the PDF downloaded by hand';
  let res: Response;
  let bytes: Uint8Array;
  try {
    res = await fetchWithStallTimeout(url, { headers: { accept: 'application/pdf' } }, STALL_MS, () => new UnavailableError(`arXiv at ${url} stopped answering`, hint));
    // arXiv's fault, not the caller's: a bad gateway, not a request too large
    bytes = await readCappedBytes(res, MAX_PDF_BYTES, () => new UnavailableError(`arXiv at ${url} sent more than ${MAX_PDF_BYTES / 1024 / 1024} MB, which no paper's PDF is`, hint));
  } catch (err) {
    if (err instanceof UnavailableError) throw err;
    throw new UnavailableError(`arXiv at ${url} is not reachable: ${(err as Error).message.split('\n')[0]}`, hint);
  }
  if (res.status === 404) throw new NotFoundError(`arXiv has no PDF at ${url}`, hint);
  if (!res.ok) throw new UpstreamAnswerError(`arXiv at ${url} answered ${res.status}`, hint);
  if (!isPdfBytes(bytes)) throw new UpstreamAnswerError(`arXiv at ${url} answered something that is not a PDF`, hint);
  return bytes;
}
