/**
 * One poll loop for every job being waited on: each tick asks for all of them in one status call.
 * The interval starts at the base, doubles while nothing changes (up to 8x) and resets on a change.
 */
import type { JobStatus, WaitOptions } from './executor.ts';
import { isFinished } from './executor.ts';

/** Failed status queries in a row before the waits give up (a controller restart takes a few). */
const MAX_FAILED_POLLS = 5;

interface Waiter {
  resolve: (s: JobStatus) => void;
  reject: (e: unknown) => void;
  last: string;
}

export class SlurmWaiters {
  private readonly waiting = new Map<string, Waiter[]>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private delay: number;
  private failedPolls = 0;

  constructor(
    private readonly status: (ids: string[]) => Promise<Map<string, JobStatus>>,
    private baseMs: number,
  ) {
    this.delay = baseMs;
  }

  add(id: string, opts: WaitOptions): Promise<JobStatus> {
    return new Promise<JobStatus>((resolve, reject) => {
      opts.signal?.throwIfAborted();
      const w: Waiter = { resolve, reject, last: '' };
      const list = this.waiting.get(id) ?? [];
      list.push(w);
      this.waiting.set(id, list);
      opts.signal?.addEventListener('abort', () => this.drop(id, w, opts.signal?.reason), { once: true });
      // the most impatient waiter sets the pace for all
      this.baseMs = Math.min(this.baseMs, opts.pollMs ?? this.baseMs);
      this.delay = Math.min(this.delay, this.baseMs);
      if (!this.timer) this.schedule(0);
    });
  }

  private drop(id: string, w: Waiter, reason: unknown): void {
    const list = (this.waiting.get(id) ?? []).filter((x) => x !== w);
    if (list.length) this.waiting.set(id, list);
    else this.waiting.delete(id);
    w.reject(reason);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    const ids = [...this.waiting.keys()];
    let changed = false;
    try {
      const all = await this.status(ids);
      this.failedPolls = 0;
      for (const id of ids) {
        const s = all.get(id);
        const list = this.waiting.get(id);
        if (!s || !list) continue;
        const key = `${s.state}/${s.reason ?? ''}`;
        for (const w of list) {
          if (w.last !== key) changed = true;
          w.last = key;
        }
        if (isFinished(s)) {
          this.waiting.delete(id);
          for (const w of list) w.resolve(s);
        }
      }
    } catch (err) {
      if (++this.failedPolls < MAX_FAILED_POLLS) return this.schedule(this.baseMs * 8);
      this.failedPolls = 0;
      for (const [id, list] of this.waiting) {
        this.waiting.delete(id);
        for (const w of list) w.reject(err);
      }
    }
    this.timer = undefined;
    if (this.waiting.size === 0) return;
    this.delay = changed ? this.baseMs : Math.min(this.delay * 2, this.baseMs * 8);
    this.schedule(this.delay);
  }
}
