import { closeSync, fstatSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { findRunLog } from '../core/checkpoint/run-log.ts';
import { runLogName } from './spawn-run.ts';

type Write = typeof process.stdout.write;

/**
 * Makes this run's output reach the checkpoint's run log (`svc_run_<epoch>.log`), which the
 * dashboard's log view reads, however the run was started. A run the dashboard launched already
 * writes its stderr there (spawnRun); a run started in a terminal gets a new log that receives a
 * copy of everything it writes to stdout and stderr, the terminal still showing it all. Returns
 * the function that stops the copying.
 */
export function copyOutputToRunLog(dir: string): () => void {
  if (stderrIsRunLog(dir)) return () => {};
  const fd = openSync(join(dir, runLogName()), 'a', 0o644);
  const restores = [process.stdout, process.stderr].map((stream) => {
    const write = stream.write;
    stream.write = function (this: typeof stream, chunk: unknown, ...rest: unknown[]) {
      try {
        writeSync(fd, typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array));
      } catch {
        // a full disk or a removed checkpoint must not stop the run; the terminal still shows it
      }
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as Write;
    return () => {
      stream.write = write;
    };
  });
  return () => {
    for (const restore of restores) restore();
    closeSync(fd);
  };
}

/** True when stderr already is the newest run log of `dir`: the launcher sends the output there. */
function stderrIsRunLog(dir: string): boolean {
  const log = findRunLog(dir);
  if (log === null) return false;
  try {
    const err = fstatSync(2);
    const file = statSync(log);
    return err.isFile() && err.dev === file.dev && err.ino === file.ino;
  } catch {
    return false;
  }
}
