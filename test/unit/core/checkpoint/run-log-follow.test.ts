import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { type FollowBatch, followRunLog } from '../../../../src/core/checkpoint/run-log-follow.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let root: string;
let ckpt: string;
let log: string;
let run: Subprocess;
beforeEach(() => {
  root = tempDir();
  ckpt = join(root, '20260101000000_run');
  mkdirSync(ckpt);
  log = join(ckpt, 'svc_run_1700000000.log');
  // the run's process: a real one, ended by the tests that need the run to end
  run = Bun.spawn(['sleep', '600']);
  writeFileSync(join(ckpt, '.svc_pid'), `${run.pid}\n`);
});
afterEach(async () => {
  run.kill('SIGKILL');
  await run.exited;
  removeDir(root);
});

type Follower = AsyncGenerator<FollowBatch, void>;

/** The next batch with lines (or the done batch), polling at most ~5 s. */
async function nextLines(f: Follower): Promise<FollowBatch | 'finished'> {
  for (let i = 0; i < 250; i++) {
    const r = await f.next();
    if (r.done) return 'finished';
    if (r.value.lines.length > 0 || r.value.done) return r.value;
  }
  throw new Error('no new lines');
}

const msgs = (b: FollowBatch | 'finished') => (b === 'finished' ? b : b.lines.map((l) => l.msg));

async function endRun(): Promise<void> {
  run.kill('SIGKILL');
  await run.exited;
}

describe('followRunLog', () => {
  test('recent lines, then each appended line, then done once the process has gone', async () => {
    writeFileSync(log, 'a\nb\n');
    const f = followRunLog(ckpt, { start: null, recent: 10, pollMs: 20 });
    expect(msgs(await nextLines(f))).toEqual(['a', 'b']);
    appendFileSync(log, 'c\n');
    expect(msgs(await nextLines(f))).toEqual(['c']);
    appendFileSync(log, 'd\ne\n');
    expect(msgs(await nextLines(f))).toEqual(['d', 'e']);
    // a last line without newline is still shown when the run ends
    appendFileSync(log, 'last words');
    await endRun();
    expect(msgs(await nextLines(f))).toEqual(['last words']);
    expect(await nextLines(f)).toEqual({ lines: [], done: true });
    expect(await f.next()).toEqual({ value: undefined, done: true });
  });

  test('an unfinished line waits for its newline while the run is alive', async () => {
    writeFileSync(log, 'start\nhalf');
    const f = followRunLog(ckpt, { start: null, recent: 10, pollMs: 20 });
    expect(msgs(await nextLines(f))).toEqual(['start']);
    appendFileSync(log, ' and whole\n');
    expect(msgs(await nextLines(f))).toEqual(['half and whole']);
    await f.return();
  });

  test('new cost records come as rendered lines', async () => {
    writeFileSync(log, 'a\n');
    writeFileSync(join(ckpt, 'cost_trace.jsonl'), '{"timestamp":"2026-01-01T09:00:00Z","skill":"before","model":"m","total_tokens":1}\n');
    const f = followRunLog(ckpt, { start: null, recent: 10, pollMs: 20 });
    expect(msgs(await nextLines(f))).toEqual(['a']);
    appendFileSync(join(ckpt, 'cost_trace.jsonl'), '{"timestamp":"2026-01-01T09:00:03Z","skill":"idea-skill","model":"m","total_tokens":42,"node_id":"node_1"}\n');
    expect(msgs(await nextLines(f))).toEqual(['[09:00:03] idea-skill | model=m tokens=42 node=node_1']);
    await f.return();
  });

  test('a truncated log is read again from its start', async () => {
    writeFileSync(log, 'a long first line\nanother long line\n');
    const f = followRunLog(ckpt, { start: null, recent: 10, pollMs: 20 });
    expect(msgs(await nextLines(f))).toEqual(['a long first line', 'another long line']);
    writeFileSync(log, 'fresh\n');
    expect(msgs(await nextLines(f))).toEqual(['fresh']);
    await f.return();
  });

  test('a newer log (the run was relaunched): the old one is finished first, then the new one from its start', async () => {
    writeFileSync(log, 'old 1\n');
    const f = followRunLog(ckpt, { start: null, recent: 10, pollMs: 20 });
    expect(msgs(await nextLines(f))).toEqual(['old 1']);
    appendFileSync(log, 'old 2\n');
    writeFileSync(join(ckpt, 'svc_run_1700000500.log'), 'new 1\n');
    const seen: string[] = [];
    while (seen.length < 2) seen.push(...(msgs(await nextLines(f)) as string[]));
    expect(seen).toEqual(['old 2', 'new 1']);
    await f.return();
  });

  test('a log that appears after the start is followed from its first line', async () => {
    const f = followRunLog(ckpt, { start: null, recent: 10, pollMs: 20 });
    expect((await f.next()).value).toEqual({ lines: [], done: false });
    writeFileSync(log, 'first\n');
    expect(msgs(await nextLines(f))).toEqual(['first']);
    await f.return();
  });

  test('from a cursor: only what came after it, no recent lines', async () => {
    writeFileSync(log, 'seen\nunseen\n');
    const f = followRunLog(ckpt, { start: { log: 5, cost: 0 }, recent: 10, pollMs: 20 });
    expect(msgs(await nextLines(f))).toEqual(['unseen']);
    await f.return();
  });

  test('a finished run: its recent lines, then done', async () => {
    writeFileSync(log, 'x\ny\n');
    await endRun();
    const f = followRunLog(ckpt, { start: null, recent: 1, pollMs: 20 });
    expect(msgs(await nextLines(f))).toEqual(['y']);
    expect(await nextLines(f)).toEqual({ lines: [], done: true });
  });

  test('the reader going away ends the follower without a done', async () => {
    writeFileSync(log, 'x\n');
    const stop = new AbortController();
    const f = followRunLog(ckpt, { start: null, recent: 10, pollMs: 20, signal: stop.signal });
    await f.next();
    stop.abort();
    expect(await f.next()).toEqual({ value: undefined, done: true });
  });
});
