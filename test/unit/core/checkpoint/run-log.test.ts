import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { costMessage, findRunLog, logMessage, parseCursor, readLines, recentRunLog, runLogSince, tailLines } from '../../../../src/core/checkpoint/run-log.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

const FIXTURE_TRACE = resolve(import.meta.dir, '../../../fixtures/ari-workspace/checkpoints/20250101000000_ari_run/cost_trace.jsonl');

let root: string;
let ckpt: string;
beforeEach(() => {
  root = tempDir();
  ckpt = join(root, '20260101000000_run');
  mkdirSync(ckpt);
});
afterEach(() => removeDir(root));

describe('findRunLog', () => {
  test('the newest by epoch, svc or reference name; ordered by number, not by text', () => {
    expect(findRunLog(ckpt)).toBeNull();
    writeFileSync(join(ckpt, 'svc_run_99.log'), '');
    writeFileSync(join(ckpt, 'ari_run_100.log'), '');
    writeFileSync(join(ckpt, 'svc_run_x.log'), '');
    writeFileSync(join(ckpt, 'run_200.log'), '');
    expect(findRunLog(ckpt)).toBe(join(ckpt, 'ari_run_100.log'));
    writeFileSync(join(ckpt, 'svc_run_101.log'), '');
    expect(findRunLog(ckpt)).toBe(join(ckpt, 'svc_run_101.log'));
  });

  test('a directory with a log name is not a log', () => {
    mkdirSync(join(ckpt, 'svc_run_500.log'));
    writeFileSync(join(ckpt, 'svc_run_1.log'), '');
    expect(findRunLog(ckpt)).toBe(join(ckpt, 'svc_run_1.log'));
  });

  test('falls back to the directory holding the checkpoint, where older launchers wrote', () => {
    writeFileSync(join(root, 'ari_run_1700000000.log'), '');
    expect(findRunLog(ckpt)).toBe(join(root, 'ari_run_1700000000.log'));
    writeFileSync(join(ckpt, 'svc_run_1.log'), '');
    expect(findRunLog(ckpt)).toBe(join(ckpt, 'svc_run_1.log'));
  });
});

describe('rendering', () => {
  test('colours, cursor codes and terminal titles are stripped', () => {
    expect(logMessage('\x1b[1;31mERROR\x1b[0m node \x1b[4mfailed\x1b[24m')).toBe('ERROR node failed');
    expect(logMessage('\x1b]0;svc run\x07started\x1b[2K')).toBe('started');
    expect(logMessage('\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\')).toBe('link');
  });

  test('carriage returns: a Windows line end goes, a progress bar shows its last state', () => {
    expect(logMessage('done\r')).toBe('done');
    expect(logMessage(' 10%\r 50%\r100% complete')).toBe('100% complete');
  });

  test('cost records of the reference run', () => {
    const lines = readFileSync(FIXTURE_TRACE, 'utf8').trim().split('\n');
    expect(costMessage(lines[0] ?? '')).toBe('[00:00:05] idea-skill | model=gpt-x tokens=150 node=-');
    // no skill: the phase names the caller
    expect(costMessage(lines[1] ?? '')).toBe('[00:01:05] bfts | model=gpt-x tokens=1200 node=node_b');
  });

  test('tokens from prompt and completion when no total; lines that are not records are skipped', () => {
    expect(costMessage('{"timestamp":"2026-03-04T13:14:15.5+00:00","skill":"paper","model":"m","prompt_tokens":7,"completion_tokens":5,"node_id":"n1"}')).toBe('[13:14:15] paper | model=m tokens=12 node=n1');
    expect(costMessage('{"model":"m"}')).toBe('[--:--:--] llm | model=m tokens=0 node=-');
    for (const bad of ['{"model": "cut off', '[1,2]', 'null', '42']) expect(costMessage(bad)).toBeNull();
  });
});

describe('reading ranges', () => {
  test('readLines: complete lines with the offset after each; an unfinished line waits unless final', () => {
    const f = join(ckpt, 'svc_run_1.log');
    writeFileSync(f, 'one\ntwo\nthr');
    expect(readLines(f, 0, 10, false)).toEqual({ lines: [{ text: 'one', end: 4 }, { text: 'two', end: 8 }], end: 8 });
    expect(readLines(f, 4, 1, false)).toEqual({ lines: [{ text: 'two', end: 8 }], end: 8 });
    expect(readLines(f, 8, 10, false)).toEqual({ lines: [], end: 8 });
    expect(readLines(f, 8, 10, true)).toEqual({ lines: [{ text: 'thr', end: 11 }], end: 11 });
    expect(readLines(f, 11, 10, true)).toEqual({ lines: [], end: 11 });
  });

  test('readLines: a line over 1 MiB without a newline is cut, not held forever', () => {
    const f = join(ckpt, 'svc_run_1.log');
    writeFileSync(f, `${'x'.repeat(2.5 * 1024 * 1024)}`);
    const r = readLines(f, 0, 10, false);
    expect(r.lines.map((l) => l.text.length)).toEqual([1024 * 1024, 1024 * 1024]);
    expect(r.end).toBe(2 * 1024 * 1024);
  });

  test('tailLines: the last n lines of a file larger than one read, with their offsets', () => {
    const f = join(ckpt, 'svc_run_1.log');
    const all = Array.from({ length: 20000 }, (_, i) => `line ${i} ${'.'.repeat(i % 50)}`);
    writeFileSync(f, `${all.join('\n')}\npartial`);
    const size = readFileSync(f).length;
    const t = tailLines(f, 3, false);
    expect(t.lines.map((l) => l.text)).toEqual(all.slice(-3));
    expect(t.end).toBe(size - 'partial'.length);
    expect(tailLines(f, 3, true).lines.map((l) => l.text)).toEqual([...all.slice(-2), 'partial']);
    expect(tailLines(f, 5000, false).lines.map((l) => l.text)).toEqual(all.slice(-5000));
    expect(tailLines(f, 30000, false).lines.length).toBe(20000);
  });
});

describe('pages of the run log', () => {
  test('recent lines, then polling from next: new log lines, then cost records written since', () => {
    const f = join(ckpt, 'svc_run_1700000000.log');
    writeFileSync(f, 'a\nb\nc\n');
    const trace = join(ckpt, 'cost_trace.jsonl');
    writeFileSync(trace, '{"timestamp":"2026-01-01T10:00:00Z","skill":"old","model":"m","total_tokens":1}\n');
    const first = recentRunLog(ckpt, 2, false);
    expect(first.file).toBe(f);
    // cost records from before are not repeated as log lines
    expect(first.lines.map((l) => l.msg)).toEqual(['b', 'c']);
    expect(first.next).toEqual({ log: 6, cost: readFileSync(trace).length });
    appendFileSync(f, '\x1b[32md\x1b[0m\n');
    appendFileSync(trace, '{"timestamp":"2026-01-01T10:00:01Z","skill":"new","model":"m","total_tokens":2,"node_id":"n"}\n');
    const second = runLogSince(ckpt, first.next, 10, false);
    expect(second.lines.map((l) => l.msg)).toEqual(['d', '[10:00:01] new | model=m tokens=2 node=n']);
    expect(second.lines[0]?.cursor).toEqual({ log: readFileSync(f).length, cost: first.next.cost });
    expect(second.next).toEqual({ log: readFileSync(f).length, cost: readFileSync(trace).length });
    expect(runLogSince(ckpt, second.next, 10, false).lines).toEqual([]);
  });

  test('a limit stops at n lines and the next page continues there', () => {
    writeFileSync(join(ckpt, 'svc_run_1.log'), '1\n2\n3\n4\n5\n');
    const p1 = runLogSince(ckpt, { log: 0, cost: 0 }, 2, false);
    expect(p1.lines.map((l) => l.msg)).toEqual(['1', '2']);
    expect(runLogSince(ckpt, p1.next, 10, false).lines.map((l) => l.msg)).toEqual(['3', '4', '5']);
  });

  test('a log shorter than the cursor was truncated: read again from its start', () => {
    const f = join(ckpt, 'svc_run_1.log');
    writeFileSync(f, 'old line one\nold line two\n');
    const before = recentRunLog(ckpt, 10, false);
    writeFileSync(f, 'new\n');
    expect(runLogSince(ckpt, before.next, 10, false).lines.map((l) => l.msg)).toEqual(['new']);
  });

  test('no log yet: nothing, and no file', () => {
    expect(recentRunLog(ckpt, 10, false)).toEqual({ file: null, lines: [], next: { log: 0, cost: 0 } });
  });

  test('cursors: <log>:<cost>, anything else is not one', () => {
    expect(parseCursor('12:0')).toEqual({ log: 12, cost: 0 });
    for (const bad of ['', '12', '12:', ':3', '-1:0', '1.5:0', 'a:b', '1:2:3', '9999999999999999:0']) expect(parseCursor(bad)).toBeNull();
  });
});
