// Where an EventSource, an image or a link cannot send the Authorization header, the dashboard's
// token may come in the query: the run log stream, a benchmark job's log stream and its report's
// files, and a checkpoint file's raw bytes, nowhere else.
import { expect, test } from 'bun:test';
import { admit } from '../../../src/server/gate.ts';

const opts = { token: Buffer.from('s3cret'), origins: new Set<string>() };
const status = (path: string) => admit(new Request(`http://127.0.0.1:8765${path}`), opts).refused?.status ?? 200;

test('?token= is taken on the event streams and report files only', () => {
  expect(status('/api/bench/run/0123abcd/logs?token=s3cret')).toBe(200);
  expect(status('/api/logs?token=s3cret')).toBe(200);
  expect(status('/api/bench/run/0123abcd/logs?token=wrong')).toBe(401);
  expect(status('/api/bench/run/0123abcd/logs')).toBe(401);
  expect(status('/api/bench/run/0123abcd?token=s3cret')).toBe(401);
  expect(status('/api/bench/run/0123abcd/results?token=s3cret')).toBe(401);
  expect(status('/api/bench/run/a/b/logs?token=s3cret')).toBe(401);
  expect(status('/api/bench/run/0123abcd/report/en/main.html?token=s3cret')).toBe(200);
  expect(status('/api/bench/run/0123abcd/report/en/build/main.pdf?token=s3cret')).toBe(200);
  expect(status('/api/bench/run/0123abcd/report/en/main.html?token=wrong')).toBe(401);
  // making the report is an action, not a link: it takes the header only
  expect(status('/api/bench/run/0123abcd/report?token=s3cret')).toBe(401);
  expect(status('/api/bench/run/0123abcd/report/en?token=s3cret')).toBe(401);
});

test("?token= is taken for a checkpoint file's raw bytes, and not for its JSON answer", () => {
  expect(status('/api/checkpoint/run_1/file/raw?path=full_paper.pdf&token=s3cret')).toBe(200);
  expect(status('/api/checkpoint/run_1/file/raw?path=full_paper.pdf&token=wrong')).toBe(401);
  expect(status('/api/checkpoint/run_1/file/raw?path=full_paper.pdf')).toBe(401);
  expect(status('/api/checkpoint/run_1/file?path=full_paper.tex&token=s3cret')).toBe(401);
  expect(status('/api/checkpoint/run_1/files?token=s3cret')).toBe(401);
  expect(status('/api/checkpoint/a/b/file/raw?token=s3cret')).toBe(401);
});

test('a path that only looks like a link once its dot segments are resolved does not take ?token=', () => {
  expect(status('/api/bench/run/0123abcd/report/en/../../results?token=s3cret')).toBe(401);
  expect(status('/api/bench/run/0123abcd/report/en/%2e%2e/%2e%2e/results?token=s3cret')).toBe(401);
  expect(status('/api/bench/run/0123abcd/report/en/%2E%2E/%2E%2E/%2E%2E/%2E%2E/settings?token=s3cret')).toBe(401);
  expect(status('/api/checkpoint/run_1/file/raw/../../../../state?token=s3cret')).toBe(401);
  expect(status('/api/checkpoint/run_1/file/raw/%2e%2e/%2e%2e/files?token=s3cret')).toBe(401);
  expect(status('/api/bench/run/0123abcd/logs/..?token=s3cret')).toBe(401);
});
