import { afterEach, beforeEach, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runEnvironment } from '../../../src/cli/run-args.ts';
import { InputError } from '../../../src/core/errors.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

test('the multi-agent flags set their variables, and --replay sets the backend and cassette', () => {
  writeFileSync(join(dir, 'c.jsonl'), '');
  const env = runEnvironment({ 'ma-k': '3', 'ma-n-papers': '20', 'ma-live': false, replay: 'c.jsonl' }, { SVC_BACKEND: 'providera' }, dir);
  expect(env).toMatchObject({ SVC_IDEA_MA_K: '3', SVC_IDEA_MA_N_PAPERS: '20', SVC_IDEA_MA_LIVE: '0', SVC_BACKEND: 'replay', SVC_REPLAY_CASSETTE: join(dir, 'c.jsonl') });
  expect(env.SVC_IDEA_MA_TEAM_SIZE).toBeUndefined();
});

test('a bad number or a missing cassette is one clear error', () => {
  expect(() => runEnvironment({ 'ma-team-size': '0' }, {}, dir)).toThrow(new InputError("--ma-team-size must be a positive whole number, got '0'"));
  expect(() => runEnvironment({ 'ma-k': 'lots' }, {}, dir)).toThrow(InputError);
  expect(() => runEnvironment({ replay: 'missing.jsonl' }, {}, dir)).toThrow(new InputError(`no cassette at ${join(dir, 'missing.jsonl')}`));
});

test("a value beyond the engine's limit is refused before the run starts, when the engine is on", () => {
  expect(() => runEnvironment({ 'ma-k': '21', 'ma-live': true }, {}, dir)).toThrow(new InputError("SVC_IDEA_MA_K must be an integer from 1 to 20, got '21'"));
  expect(() => runEnvironment({}, { SVC_IDEA_MA_REAL: '1', SVC_IDEA_MA_TEAM_SIZE: '9' }, dir)).toThrow(InputError);
  // with the engine off the variables are not read
  expect(runEnvironment({}, { SVC_IDEA_MA_TEAM_SIZE: '9' }, dir).SVC_IDEA_MA_TEAM_SIZE).toBe('9');
});
