import { readRange } from '../paths.ts';
import { extname } from 'node:path';

export type FileType = 'text' | 'image' | 'pdf' | 'binary';

/** How many leading bytes decide whether a file is text. */
export const SNIFF_BYTES = 8192;

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
};

/** Text a browser could run if served under its own type (html, js) is served as plain text too. */
const TEXT_EXTENSIONS = new Set(
  '.tex .bib .bbl .bst .cls .sty .aux .txt .md .rst .log .csv .tsv .json .jsonl .yaml .yml .toml .ini .cfg .py .ipynb .sh .c .h .cc .cpp .hpp .cu .f90 .jl .r .m .js .ts .html .css .xml .lock .out'.split(' '),
);

/** Bytes that are not text: a NUL, or not valid UTF-8 (a sequence cut at the end of a sample is fine). */
function looksBinary(bytes: Uint8Array, sampleIsPrefix: boolean): boolean {
  if (bytes.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: sampleIsPrefix });
    return false;
  } catch {
    return true;
  }
}

/** The type of a listed file: images and PDFs by extension, everything else by its first bytes. */
export function fileTypeOf(abs: string): FileType {
  const ext = extname(abs).toLowerCase();
  if (ext === '.pdf') return 'pdf';
  if (ext in IMAGE_TYPES) return 'image';
  const head = headOf(abs);
  return head === null || looksBinary(head, head.length === SNIFF_BYTES) ? 'binary' : 'text';
}

/** Headers for serving a file's raw bytes: the type from its extension; SVG may carry script, so it is sandboxed. */
export function rawHeadersOf(abs: string): Record<string, string> {
  const ext = extname(abs).toLowerCase();
  const base = { 'x-content-type-options': 'nosniff' };
  if (ext === '.pdf') return { ...base, 'content-type': 'application/pdf' };
  if (ext === '.svg') return { ...base, 'content-type': 'image/svg+xml', 'content-security-policy': 'sandbox' };
  const image = IMAGE_TYPES[ext];
  if (image) return { ...base, 'content-type': image };
  if (TEXT_EXTENSIONS.has(ext)) return { ...base, 'content-type': 'text/plain; charset=utf-8' };
  return { ...base, 'content-type': 'application/octet-stream' };
}

/** The first `bytes` bytes of a file (fewer when it is shorter); null when it cannot be read. */
export function headOf(abs: string, bytes = SNIFF_BYTES): Buffer | null {
  try {
    return readRange(abs, 0, bytes);
  } catch {
    return null;
  }
}
