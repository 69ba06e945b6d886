import { afterEach, beforeEach, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claimByLink, claimPid, PID_FILE, readPid, releasePid } from '../../../../src/core/checkpoint/pid.ts';
import { ConflictError } from '../../../../src/core/errors.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

const CHILD = join(import.meta.dir, '../../../support/claim-child.ts');
let dir: string;
beforeEach(() => {
  dir = tempDir('svc-pid-');
});
afterEach(() => removeDir(dir));

/** `n` processes claim `dir` at about the same moment; what each said, while all still live. */
async function race(n: number, how: 'lock' | 'link' = 'lock'): Promise<string[]> {
  const start = Date.now() + 300;
  const procs = Array.from({ length: n }, () => Bun.spawn([process.execPath, CHILD, dir, String(start), how], { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit' }));
  try {
    return await Promise.all(procs.map((p) => firstLine(p.stdout)));
  } finally {
    for (const p of procs) p.stdin.end();
    await Promise.all(procs.map((p) => p.exited));
  }
}

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += Buffer.from(chunk).toString('utf8');
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0]?.trim() ?? '';
}

test.each(['lock', 'link'] as const)('by %s: of processes claiming one checkpoint at once, exactly one gets it; a dead claim goes to exactly one', async (how) => {
  const said = await race(6, how);
  expect(said.filter((s) => s === 'ok')).toHaveLength(1);
  expect(said.filter((s) => s.startsWith('conflict:'))).toHaveLength(5);
  const dead = Bun.spawn([process.execPath, '-e', '0']);
  await dead.exited;
  writeFileSync(join(dir, PID_FILE), `${dead.pid}\n`);
  const again = await race(6, how);
  expect(again.filter((s) => s === 'ok')).toHaveLength(1);
});

test('a claim ends with its process, however it ends: a SIGKILLed holder frees it at once', async () => {
  const holder = Bun.spawn([process.execPath, CHILD, dir, '0'], { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit' });
  expect(await firstLine(holder.stdout)).toBe('ok');
  expect(() => claimPid(dir)).toThrow(`is being run by process ${holder.pid}`);
  holder.kill('SIGKILL');
  await holder.exited;
  claimPid(dir);
  expect(readPid(dir)).toBe(process.pid);
  releasePid(dir);
});

test('a live claim of another process is refused; a file naming our PID that we do not hold (PID reuse) is taken over', () => {
  writeFileSync(join(dir, PID_FILE), `${process.ppid}\n`);
  expect(() => claimPid(dir)).toThrow(ConflictError);
  expect(readFileSync(join(dir, PID_FILE), 'utf8').trim()).toBe(String(process.ppid));
  writeFileSync(join(dir, PID_FILE), `${process.pid}\n`);
  claimPid(dir);
  expect(readPid(dir)).toBe(process.pid);
  releasePid(dir);
});

test('a second claim from inside the process holding it is refused; after release it may claim again', () => {
  claimPid(dir);
  expect(() => claimPid(dir)).toThrow(`is being run by process ${process.pid}`);
  expect(readPid(dir)).toBe(process.pid);
  releasePid(dir);
  expect(readPid(dir)).toBeNull();
  claimPid(dir);
  releasePid(dir);
});

test('by link: a dead claim left with the takeover lock of a claimer that died taking it over is still taken over', async () => {
  const dead = Bun.spawn([process.execPath, '-e', '0']);
  await dead.exited;
  writeFileSync(join(dir, PID_FILE), `${dead.pid}\n`);
  writeFileSync(join(dir, `.${PID_FILE}.takeover`), `${dead.pid}\n`);
  claimByLink(dir);
  expect(readPid(dir)).toBe(process.pid);
  expect(existsSync(join(dir, `.${PID_FILE}.takeover`))).toBe(false);
  releasePid(dir);
});
