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
