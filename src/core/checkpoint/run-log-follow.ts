import { runningPid } from './pid.ts';
import { findRunLog, type LogCursor, type LogLine, type LogPage, recentRunLog, runLogSince } from './run-log.ts';

/** What a follower sees after each poll; `done` comes once, last, when the run has ended and its log stopped growing. */
export type FollowBatch = { lines: LogLine[]; done: boolean };

export type FollowOptions = {
  /** continue after this cursor; without one, start with the last `recent` lines */
  start: LogCursor | null;
  recent: number;
  pollMs?: number;
  /** the reader went away: stop at the next poll */
  signal?: AbortSignal;
};

/** lines per batch, so that a reader far behind catches up in steps instead of one huge read */
const BATCH = 1000;

/**
 * Follows the run log of a checkpoint like `tail -F`, with new cost records interleaved as they
 * are written. A log that shrinks was truncated and is read again from its start; a newer log
 * (the run was relaunched) replaces the old one after the old one's last lines. Ends when no
 * process recorded in the checkpoint is alive and nothing new was written since the last poll.
 */
export async function* followRunLog(dir: string, opts: FollowOptions): AsyncGenerator<FollowBatch, void> {
  const pollMs = opts.pollMs ?? 500;
  let file = findRunLog(dir);
  const first = opts.start ? read(dir, opts.start, !alive(dir), file) : recentRunLog(dir, opts.recent, !alive(dir));
  let cursor = first.next;
  let behind = first.lines.length >= BATCH;
  yield { lines: first.lines, done: false };
  for (;;) {
    if (!behind) await Bun.sleep(pollMs);
    if (opts.signal?.aborted) return;
    // decided before reading: whatever a finished run wrote is then on disk and read in full
    const ended = !alive(dir);
    const newest = findRunLog(dir);
    if (newest !== file) {
      const rest = file ? read(dir, cursor, true, file) : null;
      if (rest && rest.lines.length > 0) {
        cursor = rest.next;
        behind = true;
        yield { lines: rest.lines, done: false };
        continue;
      }
      file = newest;
      cursor = { log: 0, cost: cursor.cost };
    }
    const page = read(dir, cursor, ended, file);
    cursor = page.next;
    behind = page.lines.length >= BATCH;
    if (ended && page.lines.length === 0) {
      yield { lines: [], done: true };
      return;
    }
    yield { lines: page.lines, done: false };
  }
}

function alive(dir: string): boolean {
  return runningPid(dir) !== null;
}

/** A log deleted between finding and reading it reads as nothing new; the next poll looks again. */
function read(dir: string, since: LogCursor, final: boolean, file: string | null): LogPage {
  try {
    return runLogSince(dir, since, BATCH, final, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { file, lines: [], next: since };
    throw err;
  }
}
