import { chmodSync, constants, copyFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { hashFileSync } from '../core/file-hash.ts';
import { isCompiled } from '../core/workspace.ts';

// the compiled executable holds build.ts's entrypoints under their paths relative to src/
const WORKER = isCompiled() ? '/$bunfs/root/ear/copy-worker.ts' : new URL('./copy-worker.ts', import.meta.url).href;

export type CopyJob = { from: string; to: string };
export type Hashed = { size: number; sha256: string };
export type CopyReply = { i: number; size: number; sha256: string } | { i: number; error: string; code?: string };

/** A file the pool could not copy or hash: which job, and the system's reason (ENOSPC, EFBIG, ...). */
export class CopyError extends Error {
  constructor(
    readonly index: number,
    readonly reason: string,
    readonly code?: string,
  ) {
    super(reason);
    this.name = 'CopyError';
  }
}

/**
 * Copy `from` to `to` (a new file) and hash the copy: the digest is of exactly the bytes in `to`,
 * even if `from` changes meanwhile. The copy is the kernel's (a reflink where the filesystem has
 * them, else copy_file_range), the hash reads in 1 MiB chunks: constant memory either way.
 */
export function copyHashedSync(from: string, to: string): Hashed {
  copyFileSync(from, to, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
  chmodSync(to, 0o644);
  const { size, sha256 } = hashFileSync(to);
  return { size, sha256 };
}

/**
 * copyHashedSync over many files on worker threads: the kernel copies one file while another is
 * hashed, and the caller's event loop (the dashboard's, say) is never blocked. Results come back
 * in job order; the first failure stops the pool and rejects with a CopyError naming the job.
 */
export async function copyAllHashed(jobs: readonly CopyJob[]): Promise<Hashed[]> {
  const results: Hashed[] = new Array(jobs.length);
  if (jobs.length === 0) return results;
  // one worker hashes while another's copy runs; more only where there are cores for them
  const n = Math.min(jobs.length, Math.max(2, Math.min(4, availableParallelism())));
  const workers = Array.from({ length: n }, () => new Worker(WORKER));
  let next = 0;
  let done = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const feed = (w: Worker) => {
        if (next < jobs.length) {
          const i = next++;
          w.postMessage({ i, ...jobs[i] });
        }
      };
      for (const w of workers) {
        w.onmessage = (e: MessageEvent<CopyReply>) => {
          const r = e.data;
          if ('error' in r) return reject(new CopyError(r.i, r.error, r.code));
          results[r.i] = { size: r.size, sha256: r.sha256 };
          if (++done === jobs.length) return resolve();
          feed(w);
        };
        w.onerror = (e) => reject(new Error(`copy worker failed: ${e.message}`));
        feed(w);
      }
    });
  } finally {
    for (const w of workers) w.terminate();
  }
  return results;
}
