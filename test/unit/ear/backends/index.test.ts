import { expect, test } from 'bun:test';
import { BACKEND_NAMES, BackendError, backendErrorObject, getBackend, publishDryRun } from '../../../../src/ear/backends/index.ts';

test('every backend of the spec, by name', () => {
  expect(BACKEND_NAMES.sort()).toEqual(['hosting-doi', 'hosting-release', 'local-tarball', 'object-store', 'svc-registry']);
  for (const n of BACKEND_NAMES) expect(getBackend(n).name).toBe(n);
});

test('an unknown backend is invalid and names the known ones', () => {
  for (const bad of ['s3', 'gh', '', 'toString', '__proto__']) {
    const err = (() => {
      try {
        getBackend(bad);
      } catch (e) {
        return e as BackendError;
      }
    })();
    expect(err).toBeInstanceOf(BackendError);
    expect(err?.kind).toBe('invalid');
    expect(err?.hint).toContain('svc-registry');
  }
});

test('SVC_PUBLISH_DRYRUN forces a dry run', () => {
  expect(publishDryRun({}, false)).toBe(false);
  expect(publishDryRun({}, true)).toBe(true);
  for (const v of ['1', 'true', 'YES', ' yes ']) expect(publishDryRun({ SVC_PUBLISH_DRYRUN: v }, false)).toBe(true);
  for (const v of ['0', 'false', 'no', '']) expect(publishDryRun({ SVC_PUBLISH_DRYRUN: v }, false)).toBe(false);
});

test('error objects: one line and a kind', () => {
  expect(backendErrorObject(new BackendError('auth', 'no token', 'set it'))).toEqual({ error: 'no token (set it)', kind: 'auth' });
  expect(backendErrorObject(new Error('boom\nstack'))).toEqual({ error: 'boom', kind: 'network' });
});
