import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../src/core/errors.ts';
import { retrievalSettings } from '../../../src/ideas/retrieval-settings.ts';
import { skillConfig } from '../../../src/skills/skill-config.ts';
import { type Sandbox, sandbox } from '../llm/helpers.ts';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.close());

/** The settings a skill process started with `extra` in its environment would use. */
function settingsFor(extra: Record<string, string> = {}, workflow?: string) {
  if (workflow) writeFileSync(join(box.checkpoint, 'workflow.yaml'), workflow);
  const env = { HOME: join(box.dir, 'home'), SVC_ROOT: box.project, SVC_CHECKPOINT_DIR: box.checkpoint, ...extra };
  return retrievalSettings(skillConfig(env), env);
}

describe('retrievalSettings', () => {
  test('the bundled workflow: Semantic Scholar alone, the public URLs, no key, 30 s', () => {
    expect(settingsFor()).toEqual({ backend: 'scholar_a', scholarAUrl: 'https://api.semanticscholar.org', scholarAKey: null, scholarBUrl: 'https://export.arxiv.org', timeoutS: 30, library: null });
  });

  test("the run's workflow copy gives the backend and the second provider's endpoint", () => {
    const s = settingsFor({}, 'retrieval:\n  backend: both\n  endpoint: http://mirror.example:8080/arxiv\n');
    expect(s.backend).toBe('both');
    expect(s.scholarBUrl).toBe('http://mirror.example:8080/arxiv');
  });

  test('the reference workflow names (semantic_scholar, alphaxiv) are read as scholar_a and scholar_b', () => {
    expect(settingsFor({}, 'retrieval:\n  backend: alphaxiv\n').backend).toBe('scholar_b');
  });

  test('variables win: SVC_RETRIEVAL_BACKEND over the workflow, the URL variables over the endpoint, the key and the timeout', () => {
    const s = settingsFor(
      { SVC_RETRIEVAL_BACKEND: 'scholar_a', SVC_SCHOLAR_A_URL: 'http://127.0.0.1:9/s2', SVC_SCHOLAR_B_URL: 'http://127.0.0.1:9/ax', SVC_SCHOLAR_A_API_KEY: 'k', SVC_RETRIEVAL_TIMEOUT_S: '2.5' },
      'retrieval:\n  backend: both\n  endpoint: http://mirror.example/\n',
    );
    expect(s).toEqual({ backend: 'scholar_a', scholarAUrl: 'http://127.0.0.1:9/s2', scholarAKey: 'k', scholarBUrl: 'http://127.0.0.1:9/ax', timeoutS: 2.5, library: null });
  });

  test.each([
    [{ SVC_RETRIEVAL_TIMEOUT_S: 'soon' }, undefined, /SVC_RETRIEVAL_TIMEOUT_S must be a positive number of seconds, got 'soon'/],
    [{ SVC_RETRIEVAL_TIMEOUT_S: '0' }, undefined, /got '0'/],
    [{ SVC_SCHOLAR_A_URL: 'api.semanticscholar.org' }, undefined, /SVC_SCHOLAR_A_URL must be an http\(s\) URL, got 'api.semanticscholar.org'/],
    [{}, 'retrieval:\n  endpoint: ftp://x\n', /retrieval.endpoint must be an http\(s\) URL, got 'ftp:\/\/x'/],
  ])('%p with workflow %p is an InputError', (env, workflow, msg) => {
    let err: unknown;
    try {
      settingsFor(env, workflow);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(msg);
  });

  test('an unknown SVC_RETRIEVAL_BACKEND is refused naming the choices', () => {
    expect(() => settingsFor({ SVC_RETRIEVAL_BACKEND: 'google' })).toThrow(/scholar_a.*scholar_b.*both/);
  });
});
