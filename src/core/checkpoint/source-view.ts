import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { InputError, NotFoundError, TooLargeError } from '../errors.ts';
import { resolveInside } from '../paths.ts';
import { refuseHardLink, refuseSecret } from './files-path.ts';

/** Larger files are not rendered: a browser would struggle, and source files are far smaller. */
export const MAX_SOURCE_BYTES = 2 * 1024 * 1024;

/** The file holds NUL bytes: it is not text, and showing it as text would be noise. */
export class BinaryFileError extends InputError {
  constructor(path: string) {
    super(`${path} is a binary file, not source text`, 'download it through the checkpoint file API instead');
    this.name = 'BinaryFileError';
  }
}

/**
 * Where viewable source may live: the run's checkpoint and its per-node experiments directory,
 * nothing else. The experiments directory is found only when a path needs it (it may be refused).
 */
export type SourceRoots = { checkpoint: string; experiments: () => string };

/**
 * The file a viewer request names: a path relative to the checkpoint, or an absolute path inside
 * one of the roots. `..` out of the checkpoint, other absolute paths and symlinks leading out are
 * refused, and so are secret files wherever they are.
 */
export function locateSourceFile(userPath: string, roots: SourceRoots): string {
  const { file, root } = insideARoot(userPath, roots);
  refuseSecret(file, relative(root, file));
  return file;
}

function insideARoot(userPath: string, roots: SourceRoots): { file: string; root: string } {
  if (userPath.trim() === '') throw new InputError('no path given', 'pass ?path=<file relative to the checkpoint, or absolute>');
  if (!isAbsolute(userPath)) return { file: resolveInside(roots.checkpoint, userPath, 'path'), root: roots.checkpoint };
  for (const root of [() => roots.checkpoint, roots.experiments]) {
    const dir = root();
    try {
      return { file: resolveInside(dir, userPath, 'path'), root: dir };
    } catch {
      // not inside this root; try the next
    }
  }
  throw new InputError(`path '${userPath}' is outside the active checkpoint and its experiments directory`, 'the source viewer shows the files of the run only');
}

/** The text of a source file, after the checks that keep the viewer to readable text of sane size. */
export function readSourceText(file: string): string {
  let size: number;
  try {
    const st = statSync(file);
    if (st.isDirectory()) throw new InputError(`${file} is a directory`, 'give a file');
    if (!st.isFile()) throw new InputError(`${file} is not a regular file`);
    refuseHardLink(st, file);
    size = st.size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError(`${file} does not exist`);
    throw err;
  }
  if (size > MAX_SOURCE_BYTES) throw new TooLargeError(`${file} is ${(size / 1024 / 1024).toFixed(1)} MB; the viewer shows files up to ${MAX_SOURCE_BYTES / 1024 / 1024} MB`);
  const bytes = readFileSync(file);
  if (bytes.includes(0)) throw new BinaryFileError(file);
  return bytes.toString('utf8');
}

/**
 * A self-contained HTML page showing the text with line numbers (each line has an anchor `#L<n>`).
 * Everything from the file is escaped; the page needs no script.
 */
export function renderSourcePage(title: string, text: string): string {
  const lines = text.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  const width = String(lines.length).length;
  const body = lines
    .map((line, i) => `<span class="l" id="L${i + 1}"><a class="n" href="#L${i + 1}">${String(i + 1).padStart(width)}</a>${escapeHtml(line.replace(/\r$/, ''))}</span>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>
body { margin: 0; font-family: system-ui, sans-serif; background: #fff; color: #1d2430; }
header { padding: 0.5rem 1rem; border-bottom: 1px solid #d9dee6; background: #f6f7f9; font-size: 0.9rem; }
pre { margin: 0; padding: 0.5rem 0; font-size: 0.85rem; line-height: 1.4; tab-size: 4; }
.l { display: block; padding-right: 1rem; }
.l:target { background: #fff4c2; }
.n { display: inline-block; padding: 0 0.8rem 0 1rem; margin-right: 0.6rem; color: #8a94a3; text-decoration: none; border-right: 1px solid #d9dee6; user-select: none; }
</style>
</head>
<body>
<header>${escapeHtml(title)} · ${lines.length} ${lines.length === 1 ? 'line' : 'lines'}</header>
<pre>${body}</pre>
</body>
</html>
`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
