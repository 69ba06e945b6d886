import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NotFoundError } from '../../../src/core/errors.ts';
import { LocalExecutor } from '../../../src/sandbox/local.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const root = tempDir('svc-local-');
const stateDir = join(root, 'state');
const exec = new LocalExecutor(stateDir);
afterAll(() => removeDir(root));

function workDir(name: string): string {
  return join(root, name);
}

/** Running, not a zombie (this container's PID 1 does not reap orphans). */
function pidRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

describe('LocalExecutor', () => {
  test('a script that exits 0 is COMPLETED, with its output in the logs', async () => {
    const ref = await exec.submit({ script: 'echo hello; echo oops >&2', workDir: workDir('ok'), name: 'ok', wallTimeS: 30, env: { GREETING: 'hi' } });
    expect(await exec.wait(ref.id)).toEqual({ state: 'COMPLETED', exitCode: 0 });
    expect(await exec.logs(ref.id)).toEqual({ stdout: 'hello\n', stderr: 'oops\n' });
  });

  test('a command runs in the work dir with the given environment', async () => {
    const ref = await exec.submit({ command: ['bash', '-c', 'pwd; echo "$GREETING"'], workDir: workDir('cmd'), name: 'cmd', wallTimeS: 30, env: { GREETING: "it's here" } });
    await exec.wait(ref.id);
    expect((await exec.logs(ref.id)).stdout).toBe(`${workDir('cmd')}\nit's here\n`);
  });

  test('exit 3 is FAILED with exit code 3', async () => {
    const ref = await exec.submit({ script: 'exit 3', workDir: workDir('fail'), name: 'fail', wallTimeS: 30 });
    expect(await exec.wait(ref.id)).toEqual({ state: 'FAILED', exitCode: 3 });
  });

  test('the wall-clock limit kills the whole group: FAILED with reason TIMEOUT', async () => {
    const wd = workDir('timeout');
    const ref = await exec.submit({ script: 'sleep 300 & echo $! > child.pid; wait', workDir: wd, name: 't', wallTimeS: 1 });
    const s = await exec.wait(ref.id);
    expect(s).toEqual({ state: 'FAILED', reason: 'TIMEOUT', exitCode: null });
    const child = Number(await Bun.file(join(wd, 'child.pid')).text());
    await Bun.sleep(100);
    expect(pidRunning(child)).toBe(false);
  });

  test('cancel kills the group: FAILED with reason CANCELLED, and status reads it from another executor', async () => {
    const ref = await exec.submit({ script: 'sleep 300', workDir: workDir('cancel'), name: 'c', wallTimeS: 600 });
    expect((await exec.status([ref.id])).get(ref.id)).toEqual({ state: 'RUNNING', exitCode: null });
    await exec.cancel(ref.id);
    const other = new LocalExecutor(stateDir);
    expect(await other.wait(ref.id)).toEqual({ state: 'FAILED', reason: 'CANCELLED', exitCode: null });
  });

  test('another process with the same state dir reads the status and can cancel', async () => {
    const ref = await exec.submit({ script: 'sleep 300', workDir: workDir('xproc'), name: 'x', wallTimeS: 600 });
    const code = `import { LocalExecutor } from ${JSON.stringify(join(import.meta.dir, '../../../src/sandbox/local.ts'))};
      const e = new LocalExecutor(${JSON.stringify(stateDir)});
      const before = (await e.status([${JSON.stringify(ref.id)}])).get(${JSON.stringify(ref.id)});
      await e.cancel(${JSON.stringify(ref.id)});
      console.log(JSON.stringify([before, await e.wait(${JSON.stringify(ref.id)})]));`;
    const proc = Bun.spawn([process.execPath, '-e', code], { stdout: 'pipe', stderr: 'inherit' });
    const out = await new Response(proc.stdout).text();
    expect(JSON.parse(out)).toEqual([{ state: 'RUNNING', exitCode: null }, { state: 'FAILED', reason: 'CANCELLED', exitCode: null }]);
    expect(await exec.wait(ref.id)).toEqual({ state: 'FAILED', reason: 'CANCELLED', exitCode: null });
  });

  test('status of many jobs at once, and an unknown id is a clear NotFoundError', async () => {
    const refs = await Promise.all([0, 1, 2].map((i) => exec.submit({ script: `exit ${i}`, workDir: workDir('many'), name: `m${i}`, wallTimeS: 30 })));
    for (const r of refs) await exec.wait(r.id);
    const all = await exec.status(refs.map((r) => r.id));
    expect(refs.map((r) => all.get(r.id)?.exitCode)).toEqual([0, 1, 2]);
    await expect(exec.status(['nope'])).rejects.toThrow(NotFoundError);
    await expect(exec.status(['../../etc'])).rejects.toThrow(NotFoundError);
  });

  test('a spec with both or neither of script and command is refused before anything is written', async () => {
    const wd = workDir('bad');
    await expect(exec.submit({ workDir: wd, name: 'x', wallTimeS: 5 })).rejects.toThrow('exactly one of script');
    await expect(exec.submit({ script: 'true', command: ['true'], workDir: wd, name: 'x', wallTimeS: 5 })).rejects.toThrow('exactly one of script');
    expect(existsSync(wd) ? readdirSync(wd) : []).toEqual([]);
  });

  test('wait stops when its signal aborts', async () => {
    const ref = await exec.submit({ script: 'sleep 300', workDir: workDir('abort'), name: 'a', wallTimeS: 600 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('stop waiting')), 100);
    await expect(exec.wait(ref.id, { signal: ac.signal })).rejects.toThrow('stop waiting');
    await exec.cancel(ref.id);
  });
});

describe('job environment', () => {
  test('a variable name that is not one is refused before anything runs', async () => {
    const dir = workDir('env-name');
    await expect(exec.submit({ script: 'true', workDir: dir, name: 'env', wallTimeS: 10, env: { 'X=1; touch pwned #': 'v' } })).rejects.toThrow('is not an environment variable name');
    await Bun.sleep(200);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });
});
