import { afterEach, beforeEach, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claimPid, PID_FILE, readPid, releasePid } from '../../../../src/core/checkpoint/pid.ts';
import { ConflictError } from '../../../../src/core/errors.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

const CHILD = join(import.meta.dir, '../../../support/claim-child.ts');
let dir: string;
beforeEach(() => {
  dir = tempDir('svc-pid-');
});
afterEach(() => removeDir(dir));

/** `n` processes claim `dir` at the same moment; what each said. */
async function race(n: number): Promise<string[]> {
  const start = Date.now() + 700;
  const procs = Array.from({ length: n }, () => Bun.spawn([process.execPath, CHILD, dir, String(start)], { stdout: 'pipe', stderr: 'inherit' }));
  return Promise.all(procs.map(async (p) => (await new Response(p.stdout).text()).trim()));
}

test('of processes claiming one checkpoint at once, exactly one gets it', async () => {
  const said = await race(6);
  expect(said.filter((s) => s === 'ok')).toHaveLength(1);
  expect(said.filter((s) => s.startsWith('conflict:'))).toHaveLength(5);
});

test('a claim left by a dead process is taken over by exactly one of those racing for it', async () => {
  const dead = Bun.spawn([process.execPath, '-e', '0']);
  await dead.exited;
  writeFileSync(join(dir, PID_FILE), `${dead.pid}\n`);
  const said = await race(6);
  expect(said.filter((s) => s === 'ok')).toHaveLength(1);
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
