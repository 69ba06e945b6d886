import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as tar from 'tar';
import { bundleDigest, MANIFEST_FILE, type ManifestFile, type ManifestLock } from '../../src/ear/manifest.ts';

/**
 * Test bundles: an ear_published-like tree with a manifest.lock (its digest from bundleDigest) and
 * its gzip tarball. Small on purpose; the real curate and tarball code is src/ear/.
 */
export function writeBundleTree(dir: string, files: Record<string, string | Uint8Array>, opts: { license?: string | null; lockFiles?: (f: ManifestFile[]) => ManifestFile[] } = {}): ManifestLock {
  const records: ManifestFile[] = [];
  for (const [path, content] of Object.entries(files)) {
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
    records.push({ path, size: bytes.length, sha256: new Bun.CryptoHasher('sha256').update(bytes).digest('hex') });
  }
  records.sort((a, b) => (a.path < b.path ? -1 : 1));
  const listed = opts.lockFiles ? opts.lockFiles(records) : records;
  const lock: ManifestLock = {
    version: 1,
    checkpoint_id: 'test-ckpt',
    created_at: '2026-01-01T00:00:00Z',
    publish: { visibility: 'staged', required: false, auto_promote: false, max_file_mb: 100, license: opts.license === undefined ? 'MIT' : opts.license, backend: 'local-tarball' },
    files: listed,
    excluded_count: 0,
    bundle_sha256: bundleDigest(listed),
  };
  writeFileSync(join(dir, MANIFEST_FILE), `${JSON.stringify(lock, null, 2)}\n`);
  return lock;
}

/** Every file under `dir`, POSIX relative, sorted. */
export function treeFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const r = rel === '' ? name : `${rel}/${name}`;
    if (statSync(join(dir, r)).isDirectory()) out.push(...treeFiles(dir, r));
    else out.push(r);
  }
  return out;
}

/** A gzip tarball of `dir`'s files (relative names, fixed mtime and owner). */
export async function tarTree(dir: string, outFile: string): Promise<void> {
  await tar.c({ gzip: true, file: outFile, cwd: dir, portable: true, mtime: new Date(0), noDirRecurse: false }, treeFiles(dir));
}

/** A tree and its tarball in one go; returns the lock and the tarball's path. */
export async function makeBundle(root: string, files: Record<string, string | Uint8Array>, opts: Parameters<typeof writeBundleTree>[2] = {}): Promise<{ lock: ManifestLock; tarball: string; tree: string }> {
  const tree = join(root, 'tree');
  mkdirSync(tree, { recursive: true });
  const lock = writeBundleTree(tree, files, opts);
  const tarball = join(root, 'bundle.tar.gz');
  await tarTree(tree, tarball);
  return { lock, tarball, tree };
}

type RawEntry = { path: string; type?: 'file' | 'symlink' | 'hardlink' | 'dir' | 'chardev' | 'fifo'; body?: string | Uint8Array; linkpath?: string };

/** A gzip tarball built entry by entry, for archives curate would never make (escaping paths, links, devices). */
export async function rawTarball(outFile: string, entries: RawEntry[]): Promise<void> {
  const { Header } = await import('tar');
  const { gzipSync } = await import('node:zlib');
  const blocks: Buffer[] = [];
  const typeOf = { file: 'File', symlink: 'SymbolicLink', hardlink: 'Link', dir: 'Directory', chardev: 'CharacterDevice', fifo: 'FIFO' } as const;
  for (const e of entries) {
    const body = Buffer.from(e.body ?? '');
    const type = e.type ?? 'file';
    const h = new Header({ path: e.path, mode: type === 'dir' ? 0o755 : 0o644, size: type === 'file' ? body.length : 0, mtime: new Date(0), type: typeOf[type], linkpath: e.linkpath, uid: 0, gid: 0 });
    const block = Buffer.alloc(512);
    h.encode(block, 0);
    blocks.push(block);
    if (type === 'file' && body.length > 0) {
      blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
    }
  }
  blocks.push(Buffer.alloc(1024));
  writeFileSync(outFile, gzipSync(Buffer.concat(blocks)));
}
