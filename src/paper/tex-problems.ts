/** What to do about a failed LaTeX build: the package that has a missing file, and BibTeX's complaints. */

/**
 * Debian packages of the TeX files svc's venue templates use, beyond texlive-latex-base: a missing
 * one is named with the package to install.
 */
const PACKAGE_OF: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries({
    'texlive-publishers': 'acmart.cls IEEEtran.cls llncs.cls ACM-Reference-Format.bst IEEEtran.bst splncs04.bst',
    // acmart loads these
    'texlive-latex-extra': 'xstring.sty totpages.sty environ.sty hyperxmp.sty comment.sty manyfoot.sty draftwatermark.sty',
    'texlive-latex-recommended': 'booktabs.sty microtype.sty xcolor.sty caption.sty subcaption.sty cite.sty',
    lmodern: 'lmodern.sty',
  }).flatMap(([pkg, files]) => files.split(' ').map((file) => [file, pkg])),
);
const FIGURE = /\.(?:pdf|png|jpe?g|eps|mps|jbig2|jb2)$/i;

/** A hint for a `File `x' not found.` error, with its leading space; empty for any other error. */
export function missingFileHint(message: string): string {
  const file = /File [`'](.+?)' not found/.exec(message)?.[1];
  if (file === undefined) return '';
  const pkg = Object.hasOwn(PACKAGE_OF, file) ? PACKAGE_OF[file] : undefined;
  if (pkg) return ` (install it: apt-get install ${pkg})`;
  if (FIGURE.test(file)) return ' (a figure file: put it where \\includegraphics looks, beside the main .tex)';
  if (/\.tex$/.test(file) || !file.includes('.')) return ' (an \\input file: put it beside the main .tex)';
  return ` (no TeX package here provides ${file}: check the name, or install the TeX Live package that has it, found with apt-file search ${file})`;
}

/**
 * Why BibTeX could not make the bibliography: a database latexmk did not find (it then skips
 * BibTeX and says so), or BibTeX's first error in its .blg log with the .aux line it concerns.
 */
export function bibliographyProblem(latexmkOutput: string, blg: string | null): string | null {
  const missing = /because I don't find the following files:\s*\n\s*(\S+)/.exec(latexmkOutput)?.[1];
  if (missing) return `the bibliography database ${missing} does not exist (\\bibliography names it)`;
  const lines = (blg ?? '').split(/\r?\n/);
  const at = lines.findIndex((l) => /^-+line \d+ of file /.test(l));
  if (at > 0) {
    const bst = /couldn't open style file (\S+)/.exec(lines[at - 1] ?? '')?.[1];
    const hint = bst && Object.hasOwn(PACKAGE_OF, bst) ? ` (install it: apt-get install ${PACKAGE_OF[bst]})` : '';
    return `BibTeX: ${(lines[at - 1] ?? '').trim()} (${(lines[at] ?? '').replace(/^-+/, '').trim()})${hint}`;
  }
  return null;
}
