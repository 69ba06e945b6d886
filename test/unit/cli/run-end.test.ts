import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { printRunEnd } from '../../../src/cli/run-end.ts';
import type { RunEnd } from '../../../src/run/execute.ts';

let lines: string[];
let write: typeof process.stdout.write;
beforeEach(() => {
  lines = [];
  write = process.stdout.write;
  process.stdout.write = ((chunk: string) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  }) as typeof process.stdout.write;
});
afterEach(() => {
  process.stdout.write = write;
});

const end = (over: Partial<RunEnd>): RunEnd => ({ checkpointDir: '/ck', nodes: [], best: null, ended: 'done', ...over });

describe('printRunEnd', () => {
  test('a finished run ends with the pipeline summary and exit 0', () => {
    expect(printRunEnd(end({ pipeline: { stages: [{ stage: 'ear_curate', status: 'done', detail: '' }], failure: null } }))).toBe(0);
    expect(lines.at(-1)).toBe('post-search pipeline: 1 done');
  });

  test('a failed pipeline (a required publish) is exit 1, and the line says why', () => {
    const failure = 'ear_publish failed and publish.yaml sets required: true: registry unreachable';
    expect(printRunEnd(end({ pipeline: { stages: [{ stage: 'ear_publish', status: 'failed', detail: 'registry unreachable' }], failure } }))).toBe(1);
    expect(lines.at(-1)).toBe(`post-search pipeline: 1 failed; it failed: ${failure}`);
  });

  test('a stopped run says how to continue, exit 1, and has no pipeline line', () => {
    expect(printRunEnd(end({ ended: 'stopped' }))).toBe(1);
    expect(lines.at(-1)).toBe('stopped before the end; continue with: svc resume /ck');
    expect(lines.some((l) => l.startsWith('post-search pipeline'))).toBe(false);
  });

  test('a run whose every node failed is exit 1 and says why, by the reason most of them give', () => {
    const failed = (id: string, error_log: string) => ({ id, status: 'failed', error_log, eval_summary: null, metrics: {} }) as unknown as RunEnd['nodes'][number];
    const nodes = [failed('a', 'model call failed at step 1: HTTP 500\nstack'), failed('b', 'model call failed at step 1: HTTP 500'), failed('c', 'timed out after 300 s')];
    expect(printRunEnd(end({ nodes }))).toBe(1);
    expect(lines.at(-1)).toBe('every node failed: model call failed at step 1: HTTP 500 (2 of 3 nodes; svc status shows the others)');
    expect(printRunEnd(end({ nodes: nodes.slice(0, 2) }))).toBe(1);
    expect(lines.at(-1)).toBe('every node failed: model call failed at step 1: HTTP 500');
  });
});
