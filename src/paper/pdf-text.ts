import type { Env } from '../core/config/env-vars.ts';
import { InvalidRecordError, UnavailableError } from '../core/errors.ts';

/** More text than any paper holds: a PDF whose text runs past it is cut there. */
const MAX_TEXT_BYTES = 32 * 1024 * 1024;
const PDFTOTEXT_TIMEOUT_MS = 60_000;

export const PDFTOTEXT_INSTALL_HINT = 'install it: apt-get install poppler-utils';

/** poppler's pdftotext as found on the PATH of `env`, or null. */
export function pdftotextPath(env: Env): string | null {
  return Bun.which('pdftotext', { PATH: env.PATH ?? '' });
}

export type PdfText = { text: string; pages: number; truncated: boolean };

/**
 * The text of a PDF, by poppler's `pdftotext` (Debian poppler-utils): a file by path, or bytes
 * piped to it. Pages end with a form feed, so they are counted from the text. A PDF it cannot
 * read (damaged, encrypted) is InvalidRecordError with what it said; pdftotext missing is
 * UnavailableError naming the package.
 */
export async function pdfText(source: { path: string } | { bytes: Uint8Array }, what: string, env: Env): Promise<PdfText> {
  const pdftotext = pdftotextPath(env);
  if (!pdftotext) throw new UnavailableError(`pdftotext is not installed (not found on PATH), so the text of ${what} cannot be read`, PDFTOTEXT_INSTALL_HINT);
  const input = 'path' in source ? source.path : '-';
  const proc = Bun.spawn([pdftotext, '-enc', 'UTF-8', input, '-'], {
    stdin: 'bytes' in source ? source.bytes : 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PATH: env.PATH ?? '', LANG: 'C.UTF-8' },
  });
  const timer = setTimeout(() => proc.kill('SIGKILL'), PDFTOTEXT_TIMEOUT_MS);
  try {
    const [out, err, code] = await Promise.all([cappedText(proc.stdout, () => proc.kill('SIGKILL')), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0 && !out.truncated) {
      // its warnings come first; the last error says why it gave up
      const why = err.trim().split('\n').filter((l) => /error/i.test(l)).at(-1)?.trim() || (proc.signalCode ? `stopped after ${PDFTOTEXT_TIMEOUT_MS / 1000} s` : `exit code ${code}`);
      throw new InvalidRecordError(`pdftotext could not read ${what}: ${why}`, 'check that it is a PDF that opens, not encrypted or damaged');
    }
    return { text: out.text, pages: (out.text.match(/\f/g) ?? []).length, truncated: out.truncated };
  } finally {
    clearTimeout(timer);
  }
}

async function cappedText(stream: ReadableStream<Uint8Array>, stop: () => void): Promise<{ text: string; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk.subarray(0, MAX_TEXT_BYTES - size));
    size += chunk.byteLength;
    if (size > MAX_TEXT_BYTES) {
      stop();
      break;
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: size > MAX_TEXT_BYTES };
}
