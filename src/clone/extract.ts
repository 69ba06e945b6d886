import { posix } from 'node:path';
import * as tar from 'tar';
import { InvalidRecordError } from '../core/errors.ts';

const ALLOWED = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory', 'SymbolicLink', 'Link']);

/** Why an archive entry may not be extracted, or null when it may. */
export function entryProblem(path: string, type: string, linkpath: string | undefined): string | null {
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('\\')) return `absolute path ${path}`;
  const parts = path.split(/[\\/]/);
  if (parts.includes('..')) return `path ${path} climbs out with ..`;
  if (!ALLOWED.has(type)) return `${path} is a ${type} entry (only files and directories are extracted)`;
  if (type === 'SymbolicLink' || type === 'Link') {
    const target = linkpath ?? '';
    if (target === '' || target.startsWith('/') || /^[A-Za-z]:/.test(target)) return `link ${path} points outside (${target || 'empty'})`;
    // a symlink is relative to its own directory; a hard link to the archive root
    const resolved = posix.normalize(type === 'SymbolicLink' ? posix.join(posix.dirname(path), target) : target);
    if (resolved === '..' || resolved.startsWith('../')) return `link ${path} points outside (${target})`;
  }
  return null;
}

/** More entries than any bundle needs: an archive of millions of empty files would only eat inodes. */
export const MAX_ENTRIES = 200_000;

/**
 * Step 2: extract a (gzip) tarball into `dir`, streamed. Entries with an absolute path, a `..`,
 * a link leading out, or a device/fifo type are never written, and the extraction then fails; so
 * does an archive of more than `maxEntries` entries.
 */
export async function extractTarball(file: string, dir: string, maxEntries = MAX_ENTRIES): Promise<void> {
  const problems: string[] = [];
  let entries = 0;
  try {
    await tar.x({
      file,
      cwd: dir,
      strict: true,
      maxReadSize: 1 << 20,
      preserveOwner: false,
      filter: (path, entry) => {
        const e = entry as unknown as { type: string; linkpath?: string };
        if (++entries > maxEntries) {
          if (entries === maxEntries + 1) problems.push(`it has more than ${maxEntries} entries`);
          return false;
        }
        const why = entryProblem(path, e.type, e.linkpath);
        if (why !== null) problems.push(why);
        return why === null && problems.length === 0;
      },
    });
  } catch (err) {
    if (problems.length > 0) throw refused(problems);
    throw new InvalidRecordError(`the bundle is not a readable tarball: ${(err as Error).message.split('\n')[0]}`);
  }
  if (problems.length > 0) throw refused(problems);
}

function refused(problems: string[]): InvalidRecordError {
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return new InvalidRecordError(`the bundle archive is refused: ${problems[0]}${more}`, 'a bundle holds only relative paths inside itself');
}
