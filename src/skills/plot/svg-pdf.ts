import { definedEnv } from '../../core/config/environment.ts';
import { SvcError } from '../../core/errors.ts';

/** Debian's package for it, named wherever the converter is missing. */
export const PDF_CONVERTER_PACKAGE = 'librsvg2-bin';

/** No chart takes longer than this to convert; a converter that does is stuck. */
const CONVERT_TIMEOUT_MS = 60_000;

/** What the converter runs with: where programs and fonts are, nothing else (no keys). */
const TOOL_ENV = /^(PATH|HOME|LANG|LC_[A-Z]+|TMPDIR|FONTCONFIG_[A-Z]+|XDG_[A-Z_]+)$/;

/** rsvg-convert on the skill's PATH, or null. */
export function pdfConverter(env: Readonly<Record<string, string | undefined>>): string | null {
  return Bun.which('rsvg-convert', { PATH: env.PATH ?? '' });
}

/**
 * An SVG as a vector PDF, by librsvg's converter: pdflatex includes it at any size with its text
 * kept as text. The fonts come from the system (fontconfig), the page is the SVG's size.
 */
export async function svgToPdf(converter: string, svg: string, env: Readonly<Record<string, string | undefined>>, signal: AbortSignal): Promise<Uint8Array> {
  const proc = Bun.spawn([converter, '--format', 'pdf'], {
    stdin: new TextEncoder().encode(svg),
    stdout: 'pipe',
    stderr: 'pipe',
    env: Object.fromEntries(Object.entries(definedEnv(env)).filter(([k]) => TOOL_ENV.test(k))),
    timeout: CONVERT_TIMEOUT_MS,
    signal,
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).bytes(), new Response(proc.stderr).text(), proc.exited]);
  if (signal.aborted) throw signal.reason;
  const pdf = new Uint8Array(out);
  if (code !== 0 || new TextDecoder().decode(pdf.subarray(0, 5)) !== '%PDF-') {
    const why = err.trim().split('\n')[0] || (proc.signalCode ? `stopped by ${proc.signalCode}` : `exit code ${code}`);
    throw new SvcError(`${converter} could not convert a figure to PDF: ${why}`, `check that ${converter} works: rsvg-convert --version`);
  }
  return pdf;
}
