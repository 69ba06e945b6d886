import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';

export type AccessRecord = { ts: string; method: string; path: string; status: number; duration_ms: number; client: string };

/**
 * Appends request records to `viz_access.jsonl` of the active checkpoint. Writes are batched
 * (every 200 ms) so that logging never sits on a request's path; `flush` drains on shutdown.
 */
export class AccessLog {
  private pending = new Map<string, string[]>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<void> = Promise.resolve();

  record(checkpointDir: string, rec: AccessRecord): void {
    const file = join(checkpointDir, 'viz_access.jsonl');
    const lines = this.pending.get(file);
    if (lines) lines.push(JSON.stringify(rec));
    else this.pending.set(file, [JSON.stringify(rec)]);
    this.timer ??= setTimeout(() => void this.flush(), 200);
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    this.writing = this.writing.then(async () => {
      for (const [file, lines] of batch) {
        // a checkpoint deleted meanwhile has nowhere to log to; that is not worth an error
        await appendFile(file, `${lines.join('\n')}\n`).catch(() => {});
      }
    });
    return this.writing;
  }
}
