import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';

/** `ts` is taken as epoch milliseconds and written as an ISO time. */
export type AccessRecord = { ts: number; method: string; path: string; status: number; duration_ms: number; client: string };

/**
 * Appends request records to `viz_access.jsonl` of the active checkpoint. Writes are batched
 * (every 200 ms) so that logging never sits on a request's path; `flush` drains on shutdown.
 */
export class AccessLog {
  private pending = new Map<string, AccessRecord[]>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<void> = Promise.resolve();

  record(checkpointDir: string, rec: AccessRecord): void {
    const file = join(checkpointDir, 'viz_access.jsonl');
    const records = this.pending.get(file);
    if (records) records.push(rec);
    else this.pending.set(file, [rec]);
    this.timer ??= setTimeout(() => void this.flush(), 200);
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    this.writing = this.writing.then(async () => {
      for (const [file, records] of batch) {
        const text = records.map((r) => `${JSON.stringify({ ...r, ts: new Date(r.ts).toISOString() })}\n`).join('');
        // a checkpoint deleted meanwhile has nowhere to log to; that is not worth an error
        await appendFile(file, text).catch(() => {});
      }
    });
    return this.writing;
  }
}
