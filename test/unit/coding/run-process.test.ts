import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { SvcError } from '../../../src/core/errors.ts';
import { runProcess } from '../../../src/coding/run-process.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { isRunning, waitForFile } from '../skills/coding/tool-call.ts';

let dir: string;
const started: number[] = [];
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => {
  for (const pid of started.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  removeDir(dir);
});

const env = { PATH: process.env.PATH };
const bash = (script: string, more: Partial<Parameters<typeof runProcess>[0]> = {}) =>
  runProcess({ cmd: ['bash', '-c', script], cwd: dir, env, timeoutS: 30, ...more });

describe('runProcess', () => {
  test('captures stdout, stderr and the exit code of a command that ends by itself', async () => {
    const r = await bash('echo out; echo err >&2; exit 3');
    expect(r).toMatchObject({ exit_code: 3, signal: null, stdout: 'out\n', stderr: 'err\n', timed_out: false, truncated: false });
    expect(r.elapsed_s).toBeGreaterThanOrEqual(0);
  });

  test('runs in the directory and with the environment it is given', async () => {
    const r = await runProcess({ cmd: ['bash', '-c', 'pwd; echo "$SVC_PROBE"'], cwd: dir, env: { ...env, SVC_PROBE: 'seen' }, timeoutS: 30 });
    expect(r.stdout).toBe(`${dir}\nseen\n`);
  });

  test('stdin is closed: a command reading it sees the end at once', async () => {
    const r = await bash('cat; echo "read $?"');
    expect(r).toMatchObject({ exit_code: 0, stdout: 'read 0\n', timed_out: false });
  });

  test('a timeout stops the command and the grandchild it started', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    const r = await bash(`bash -c 'sleep 300 & echo $! > ${pidFile}; wait'; echo not reached`, { timeoutS: 0.5 });
    const grandchild = Number(await waitForFile(pidFile));
    started.push(grandchild);
    expect(r).toMatchObject({ timed_out: true, signal: 'SIGTERM', exit_code: 143 });
    expect(r.stdout).not.toContain('not reached');
    expect(isRunning(grandchild)).toBe(false);
  });

  test('a group member that ignores SIGTERM is killed after the grace period', async () => {
    const pidFile = join(dir, 'stubborn.pid');
    const r = await bash(`trap '' TERM; sleep 300 & echo $! > ${pidFile}; wait`, { timeoutS: 0.5, killGraceS: 0.2 });
    const stubborn = Number(await waitForFile(pidFile));
    started.push(stubborn);
    expect(r).toMatchObject({ timed_out: true, signal: 'SIGKILL', exit_code: 137 });
    expect(isRunning(stubborn)).toBe(false);
  });

  test('an abort stops the group and fails the call', async () => {
    const pidFile = join(dir, 'aborted.pid');
    const abort = new AbortController();
    const running = bash(`sleep 300 & echo $! > ${pidFile}; wait`, { signal: abort.signal });
    const child = Number(await waitForFile(pidFile));
    started.push(child);
    abort.abort();
    const err = await running.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SvcError);
    expect((err as Error).message).toBe('bash was stopped: the call was cancelled');
    expect(isRunning(child)).toBe(false);
  });

  test('an aborted signal starts nothing', async () => {
    const abort = new AbortController();
    abort.abort();
    await expect(bash(`touch ${join(dir, 'ran')}`, { signal: abort.signal })).rejects.toThrow(/cancelled/);
    expect(await Bun.file(join(dir, 'ran')).exists()).toBe(false);
  });

  test('a process left running in the background does not hold the call', async () => {
    const r = await bash('sleep 300 & echo $!');
    const background = Number(r.stdout.trim());
    started.push(background);
    expect(r).toMatchObject({ exit_code: 0, timed_out: false });
    expect(isRunning(background)).toBe(true);
  });

  test('long output keeps its head and tail and says it was cut', async () => {
    const r = await bash(`printf START; head -c 200000 /dev/zero | tr '\\0' a; printf END; echo tail-err >&2`, { maxChars: 1000 });
    expect(r.truncated).toBe(true);
    expect(r.stdout.startsWith(`START${'a'.repeat(495)}\n[... `)).toBe(true);
    expect(r.stdout.endsWith(`${'a'.repeat(497)}END`)).toBe(true);
    expect(r.stdout).toContain(`[... ${200008 - 1000} characters cut ...]`);
    expect(r.stderr).toBe('tail-err\n');
  });

  test('output of exactly the limit is whole; one character more is cut', async () => {
    expect(await bash('printf 0123456789', { maxChars: 10 })).toMatchObject({ stdout: '0123456789', truncated: false });
    expect(await bash('printf 0123456789X', { maxChars: 10 })).toMatchObject({ stdout: '01234\n[... 1 characters cut ...]\n6789X', truncated: true });
  });

  test('a program that does not exist is a clear error', async () => {
    await expect(runProcess({ cmd: [join(dir, 'no-such-program')], cwd: dir, env, timeoutS: 5 })).rejects.toThrow(/cannot start no-such-program/);
  });
});
