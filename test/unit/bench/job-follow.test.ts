// Following a job's log: lines of this process wake the follower, lines of another connection (as
// another process writes them) are found by polling, and the end of the job ends the follow.
import { afterEach, beforeEach, expect, test } from 'bun:test';
import { join } from 'node:path';
import { HOST } from '../../../src/bench/jobs/liveness.ts';
import { type FollowBatch, followJobLog } from '../../../src/bench/jobs/follow.ts';
import { JobStore } from '../../../src/bench/jobs/store.ts';
import { results } from '../../support/bench-jobs.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const OWNER = { pid: process.pid, host: HOST, token: 'o'.repeat(32) };
const JOB = 'a'.repeat(32);

let dir: string;
let store: JobStore;
let other: JobStore;
beforeEach(() => {
  dir = tempDir();
  store = JobStore.open(join(dir, 'registry'));
  other = JobStore.open(join(dir, 'registry'));
  store.insertJobs([{ job_id: JOB, paper_id: 'p', configs: { rubric: {}, reproduce: {}, judge: {} } }]);
  store.claimNext(OWNER, 1);
});
afterEach(() => {
  for (const s of [store, other]) if (!s.closed) s.close();
  removeDir(dir);
});

/** The next batch with lines or an end; empty poll batches are counted. */
async function nextLines(follow: AsyncGenerator<FollowBatch>, polls = { n: 0 }): Promise<FollowBatch> {
  for (;;) {
    const { value, done } = await follow.next();
    if (done) throw new Error('the follow ended');
    if (value.lines.length > 0 || value.done) return value;
    polls.n++;
  }
}

test('a line appended in this process reaches the follower without waiting for a poll', async () => {
  const follow = followJobLog(store, JOB, -1, new AbortController().signal, { pollMs: 60_000 });
  const first = nextLines(follow);
  setTimeout(() => store.appendLog(JOB, 'info', 'hello'), 20);
  expect((await first).lines.map((l) => [l.seq, l.msg])).toEqual([[0, 'hello']]);
  await follow.return(undefined);
});

test('a line appended by another connection is found by polling; quiet polls yield empty batches', async () => {
  const follow = followJobLog(store, JOB, -1, new AbortController().signal, { pollMs: 20 });
  const polls = { n: 0 };
  const got = nextLines(follow, polls);
  setTimeout(() => other.appendLog(JOB, 'warning', 'from elsewhere'), 100);
  expect((await got).lines.map((l) => [l.level, l.msg])).toEqual([['warning', 'from elsewhere']]);
  expect(polls.n).toBeGreaterThan(0);
  await follow.return(undefined);
});

test('the end of the job ends the follow after its last lines, with its status', async () => {
  store.appendLog(JOB, 'info', 'one');
  const follow = followJobLog(store, JOB, 0, new AbortController().signal, { pollMs: 20 });
  setTimeout(() => store.complete(JOB, OWNER, results('p', '/r', 0), 'completed'), 20);
  const batches: FollowBatch[] = [];
  for await (const b of follow) if (b.lines.length > 0 || b.done) batches.push(b);
  expect(batches.flatMap((b) => b.lines.map((l) => l.msg))).toEqual(['completed']);
  expect(batches.at(-1)?.done).toBe('completed');
});

test('an abort or a closed store ends the follow', async () => {
  const abort = new AbortController();
  const aborted = followJobLog(store, JOB, -1, abort.signal, { pollMs: 60_000 });
  const pending = aborted.next();
  abort.abort();
  expect(await pending).toEqual({ value: undefined, done: true });
  const closing = followJobLog(other, JOB, -1, new AbortController().signal, { pollMs: 10 });
  await closing.next();
  other.close();
  const rest: FollowBatch[] = [];
  for await (const b of closing) rest.push(b);
  expect(rest.every((b) => b.done === null)).toBe(true);
});
