import { appendFileSync, closeSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { statOrNull } from './paths.ts';

/** A lock older than this was left by a process that died while rotating. */
const STALE_LOCK_MS = 60_000;

/**
 * An append-only log file that never grows past a size: once it has reached `maxBytes` it is
 * renamed to `<stem>.<n><ext>` (n: epoch seconds, or more when needed so that a larger n is always
 * newer) and appending continues in a fresh file. Every append is one write(2) on a descriptor
 * opened with O_APPEND, so lines from parallel processes never interleave, and nothing is buffered
 * in memory, so nothing is lost when a process exits. A lock file keeps two writers from rotating
 * at once.
 */
export class RotatingLog {
  private readonly stem: string;
  private readonly ext: string;

  constructor(
    readonly file: string,
    private readonly maxBytes: number,
  ) {
    this.ext = extname(file);
    this.stem = basename(file, this.ext);
  }

  /**
   * Appends `text` as one write. A rotation that fails leaves a longer live log, never fewer
   * lines: its error goes to `onRotateError` and the append goes on. A failed write throws.
   */
  append(text: string, onRotateError: (err: unknown) => void = () => {}): void {
    if (text === '') return;
    try {
      if (sizeOf(this.file) >= this.maxBytes) this.rotate();
    } catch (err) {
      onRotateError(err);
    }
    // a regular file opened for appending takes the whole text in one write
    appendFileSync(this.file, text);
  }

  /** Renames the full log out of the way; a writer that finds the lock taken just appends. */
  private rotate(): void {
    const dir = dirname(this.file);
    const lock = join(dir, `.${this.stem}.rotate.lock`);
    let fd: number;
    try {
      fd = openSync(lock, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = Date.now() - (statOrNull(lock)?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) rmSync(lock, { force: true });
      return;
    }
    closeSync(fd);
    try {
      // another writer may have rotated between our size check and taking the lock
      if (sizeOf(this.file) < this.maxBytes) return;
      renameSync(this.file, join(dir, `${this.stem}.${this.nextNumber(dir)}${this.ext}`));
    } finally {
      rmSync(lock, { force: true });
    }
  }

  /** Epoch seconds, or one more than the newest rotated part when that is later. */
  private nextNumber(dir: string): number {
    let n = Math.floor(Date.now() / 1000);
    const prefix = `${this.stem}.`;
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(prefix) || !name.endsWith(this.ext)) continue;
      const middle = name.slice(prefix.length, name.length - this.ext.length);
      if (/^\d+$/.test(middle)) n = Math.max(n, Number(middle) + 1);
    }
    return n;
  }
}

function sizeOf(file: string): number {
  return statOrNull(file)?.size ?? 0;
}
