import { posix, sep } from 'node:path';
import { Parser, type ReadEntry, Unpack } from 'tar';
import { ArchiveRefusedError, MAX_ENTRIES, readTarFile, TarFeed } from '../ear/archive.ts';
import { isRootManifest, MAX_MANIFEST_BYTES } from '../ear/manifest.ts';
import { parseLine } from '../core/json-object.ts';

const ALLOWED = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory', 'SymbolicLink', 'Link']);

/** What the files of an archive may hold beyond what manifest.lock declares (at least; or a tenth more). */
const MARGIN_BYTES = 16 * 1024 * 1024;

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

/**
 * Step 2: extract a gzip tarball into `dir`, in two streamed passes. The first reads headers only
 * (file bodies are skipped, never kept): an entry with an absolute path, a `..`, a link leading
 * out or a device/fifo type, more than `maxEntries` entries, or more bytes than manifest.lock
 * declares, refuses the archive before anything is written. The second writes the files, unpacking
 * no more than the first pass measured. Reading stops at the end-of-archive marker in both.
 */
export async function extractTarball(file: string, dir: string, maxEntries = MAX_ENTRIES): Promise<void> {
  const unpacked = await scanTarball(file, maxEntries);
  const unpack = new Unpack({
    cwd: dir,
    strict: true,
    preserveOwner: false,
    // the first pass refused every entry this refuses; kept so that a file changed in between slips nothing through
    filter: (path, entry) => entryProblem(path, (entry as ReadEntry).type, (entry as ReadEntry).linkpath) === null,
  });
  try {
    await readTarFile(file, new TarFeed(unpack, unpacked));
  } catch (err) {
    // a file system error names the path it failed on: say it as the archive does, not where the temporary tree is
    if (err instanceof Error) err.message = err.message.replaceAll(`${dir}${sep}`, '');
    throw err;
  }
}

/**
 * The first pass: refuses what must not be extracted, and an archive without a manifest.lock at its
 * root that says how big its files are (no bundle, and nothing to hold its size to); returns the
 * bytes the tarball unpacks to.
 */
async function scanTarball(file: string, maxEntries: number): Promise<number> {
  let entries = 0;
  let bodies = 0;
  const manifest: { declared: number | null } = { declared: null };
  const refuse = (entry: ReadEntry | null, why: string) => {
    entry?.resume();
    feed.fail(new ArchiveRefusedError(why));
  };
  // a changed or extra file is for verification to name; only far more than declared is refused here
  const overDeclared = () => manifest.declared !== null && bodies > manifest.declared + Math.max(MARGIN_BYTES, manifest.declared / 10);
  const tooMuch = () => `its files hold far more than the ${manifest.declared} bytes manifest.lock declares`;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      if (++entries > maxEntries) return refuse(entry, `it has more than ${maxEntries} entries`);
      const why = entryProblem(entry.path, entry.type, entry.linkpath);
      if (why !== null) return refuse(entry, why);
      bodies += entry.size ?? 0;
      if (overDeclared()) return refuse(entry, tooMuch());
      if (entry.type !== 'File' || !isRootManifest(entry.path) || (entry.size ?? 0) > MAX_MANIFEST_BYTES) return void entry.resume();
      const parts: Buffer[] = [];
      entry.on('data', (c: Buffer) => parts.push(c));
      entry.on('end', () => {
        manifest.declared = declaredBytes(Buffer.concat(parts));
        if (overDeclared()) refuse(null, tooMuch());
      });
    },
  });
  // before manifest.lock is read there is no size to hold the archive to: the feed's ratio bound
  // applies, and nothing is written in this pass
  const feed = new TarFeed(parser, Number.POSITIVE_INFINITY);
  await readTarFile(file, feed);
  if (manifest.declared === null) throw new ArchiveRefusedError('it has no manifest.lock at its root listing its files and their sizes');
  return feed.unpackedBytes;
}

/** The bytes manifest.lock says its bundle holds (its files and itself), or null when it cannot say. */
function declaredBytes(manifest: Buffer): number | null {
  // one that is not JSON, or lists no files: verification says what is wrong with it
  const files = parseLine(manifest.toString('utf8'))?.files;
  if (!Array.isArray(files)) return null;
  let total = manifest.length;
  for (const f of files as { size?: unknown }[]) {
    if (typeof f?.size !== 'number' || !Number.isSafeInteger(f.size) || f.size < 0) return null;
    total += f.size;
  }
  return total;
}
