import { afterEach, beforeEach, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCassette } from '../../../src/llm/cassette.ts';
import { requestShapingEnv, withRecordedEnv } from '../../../src/run/request-env.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

test("a replay takes the idea engine's variables its cassette carries, where the caller does not set them", () => {
  const cassette = join(dir, 'c.jsonl');
  startCassette(cassette, 'llm: {}\n', {}, requestShapingEnv({ SVC_IDEA_MA_REAL: '1', SVC_IDEA_MA_K: '2', SVC_BUDGET_USD: '5' }));
  const env = withRecordedEnv({ SVC_BACKEND: 'replay', SVC_REPLAY_CASSETTE: cassette, SVC_IDEA_MA_K: '3' }, dir);
  expect(env).toMatchObject({ SVC_IDEA_MA_REAL: '1', SVC_IDEA_MA_K: '3' });
  // only the variables that shape requests are carried
  expect(env.SVC_BUDGET_USD).toBeUndefined();
});

test('a resume of a recording takes them from its own cassette; no cassette, nothing taken', () => {
  startCassette(join(dir, 'llm_cassette.jsonl'), 'llm: {}\n', {}, { SVC_IDEA_MA_REAL: '1', SVC_IDEA_MA_TEAM_SIZE: '2' });
  expect(withRecordedEnv({}, dir)).toMatchObject({ SVC_IDEA_MA_REAL: '1', SVC_IDEA_MA_TEAM_SIZE: '2' });
  const empty = tempDir();
  expect(withRecordedEnv({ SVC_BACKEND: 'providera' }, empty)).toEqual({ SVC_BACKEND: 'providera' });
  // a header with something else than strings is no header: nothing taken
  writeFileSync(join(empty, 'llm_cassette.jsonl'), `${JSON.stringify({ svc_cassette: 1, workflow_sha256: 'x', workflow: '', env: { SVC_IDEA_MA_K: 2 } })}\n`);
  expect(withRecordedEnv({}, empty)).toEqual({});
  removeDir(empty);
});
