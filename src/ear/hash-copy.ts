import { constants } from 'node:fs';
import { chmod, copyFile } from 'node:fs/promises';
import { hashFile } from '../core/file-hash.ts';

/**
 * Copy `from` to `to` (a new file) and hash the copy: the digest is of exactly the bytes in `to`,
 * even if `from` changes meanwhile. The copy is the kernel's (a reflink where the filesystem has
 * them, else copy_file_range), the hash reads in 1 MiB chunks: constant memory either way.
 */
export async function copyHashed(from: string, to: string, mode = 0o644): Promise<{ size: number; sha256: string }> {
  await copyFile(from, to, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
  await chmod(to, mode);
  return hashFile(to);
}
