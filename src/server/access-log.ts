import { join } from 'node:path';
import { oneLine } from '../core/errors.ts';
import { RotatingLog } from '../core/rotating-log.ts';
import { logFor } from '../core/log.ts';

/** `ts` is taken as epoch milliseconds and written as an ISO time. */
export type AccessRecord = { ts: number; method: string; path: string; status: number; duration_ms: number; client: string };

export const VIZ_ACCESS_LOG = 'viz_access.jsonl';

/**
 * Appends request records to `viz_access.jsonl` of the active checkpoint, rotated to
 * `viz_access.<n>.jsonl` at `maxBytes` as the memory access log is. Writes are batched (every
 * 200 ms) so that logging never sits on a request's path; `flush` drains on shutdown.
 */
export class AccessLog {
  private pending = new Map<string, AccessRecord[]>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private warned = false;

  constructor(private readonly maxBytes: number) {}

  record(checkpointDir: string, rec: AccessRecord): void {
    const file = join(checkpointDir, VIZ_ACCESS_LOG);
    const records = this.pending.get(file);
    if (records) records.push(rec);
    else this.pending.set(file, [rec]);
    this.timer ??= setTimeout(() => this.flush(), 200);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    for (const [file, records] of batch) {
      const text = records.map((r) => `${JSON.stringify({ ...r, ts: new Date(r.ts).toISOString() })}\n`).join('');
      try {
        new RotatingLog(file, this.maxBytes).append(text, (err) => this.warn(file, `cannot be rotated: ${oneLine(err)}`));
      } catch (err) {
        // a checkpoint deleted meanwhile has nowhere to log to; that is not worth an error
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.warn(file, `cannot be written: ${oneLine(err)}`);
      }
    }
  }

  private warn(file: string, problem: string): void {
    if (!this.warned) logFor('svc viz').warn(`access log ${file} ${problem}`);
    this.warned = true;
  }
}
