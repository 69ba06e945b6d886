import { describe, expect, test } from 'bun:test';
import { resolveImage } from '../../../src/sandbox/image.ts';

describe('resolveImage', () => {
  test('the benchmark aliases resolve to their latest tag', () => {
    expect(resolveImage('bench-env')).toBe('bench-env:latest');
    expect(resolveImage('bench-reproducer')).toBe('bench-reproducer:latest');
  });

  test('tags, URIs, paths and other names pass unchanged', () => {
    for (const ref of ['bench-env:v2', 'ubuntu:24.04', 'ubuntu', 'docker://bench-env', 'library://x/y/z:1', '/opt/images/bench-env.sif', './bench-env', 'ghcr.io/a/bench-env:latest', 'constructor', 'toString']) {
      expect(resolveImage(ref)).toBe(ref);
    }
  });
});
