import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NotFoundError, UnavailableError } from '../../../src/core/errors.ts';
import { runBash } from '../../../src/coding/run-bash.ts';
import { runCode } from '../../../src/coding/run-code.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { callTool, isRunning, waitForFile } from '../skills/coding/tool-call.ts';
import { lacks } from '../../support/components.ts';

let work: string;
beforeEach(() => {
  work = tempDir();
});
afterEach(() => removeDir(work));

const env = (more: Record<string, string> = {}) => ({ PATH: process.env.PATH, SVC_WORK_DIR: work, ...more });
const hasNode = Bun.which('node') !== null;

describe('run_code', () => {
  test.skipIf(lacks('python3'))('runs a .py file with python3 in the work directory, with the skill environment', async () => {
    writeFileSync(join(work, 'main.py'), 'import os, sys\nprint(os.getcwd(), os.environ["SVC_PROBE"])\nsys.exit(4)\n');
    const r = await callTool(runCode, { filename: 'main.py' }, env({ SVC_PROBE: 'p1' }));
    expect(r).toMatchObject({ exit_code: 4, stdout: `${work} p1\n`, stderr: '', timed_out: false, truncated: false });
  });

  test('runs a .sh file with bash (bash syntax works)', async () => {
    writeFileSync(join(work, 'go.sh'), '[[ -n $BASH_VERSION ]] && echo sh-ran\n');
    expect(await callTool(runCode, { filename: 'go.sh' }, env())).toMatchObject({ exit_code: 0, stdout: 'sh-ran\n' });
  });

  test.skipIf(!hasNode)('runs a .js and an .mjs file with node', async () => {
    writeFileSync(join(work, 'a.js'), 'console.log("js " + process.argv.length)\n');
    writeFileSync(join(work, 'b.mjs'), 'console.log(typeof import.meta)\n');
    expect((await callTool(runCode, { filename: 'a.js' }, env())).stdout).toBe('js 2\n');
    expect((await callTool(runCode, { filename: 'b.mjs' }, env())).stdout).toBe('object\n');
  });

  test("without node on PATH a .js file runs on svc's own runtime", async () => {
    writeFileSync(join(work, 'a.js'), 'console.log("js " + process.argv.length + " " + typeof process.versions.bun)\n');
    const emptyPath = join(work, 'empty-bin');
    mkdirSync(emptyPath);
    const r = await callTool(runCode, { filename: 'a.js' }, { SVC_WORK_DIR: work, PATH: emptyPath });
    expect(r).toMatchObject({ exit_code: 0, stdout: 'js 2 string\n', stderr: '' });
  });

  test.skipIf(lacks('python3'))('a python traceback comes back as stderr and a non-zero exit', async () => {
    writeFileSync(join(work, 'bad.py'), 'raise ValueError("boom")\n');
    const r = await callTool(runCode, { filename: 'bad.py' }, env());
    expect(r.exit_code).toBe(1);
    expect(r.stderr).toContain('ValueError: boom');
  });

  test('an extension without an interpreter is refused, naming the ones there are', async () => {
    writeFileSync(join(work, 'x.rb'), 'puts 1\n');
    await expect(callTool(runCode, { filename: 'x.rb' }, env())).rejects.toThrow("no interpreter for '.rb' files (run_code runs .py, .sh, .js, .mjs, .cjs)");
  });

  test('a missing interpreter says which and what to install', async () => {
    writeFileSync(join(work, 'm.py'), 'print(1)\n');
    const emptyPath = join(work, 'empty-bin');
    mkdirSync(emptyPath);
    const err = await callTool(runCode, { filename: 'm.py' }, { SVC_WORK_DIR: work, PATH: emptyPath }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as UnavailableError).message).toBe('no interpreter for .py: python3 is not on PATH');
    expect((err as UnavailableError).hint).toBe('install Python 3');
  });

  test('a missing file is NotFound and names it', async () => {
    const err = await callTool(runCode, { filename: 'nope.py' }, env()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toBe(`no file 'nope.py' in ${work}`);
  });

  test.skipIf(lacks('python3'))('the timeout argument stops a program and what it started', async () => {
    writeFileSync(join(work, 'spin.py'), 'import subprocess, time\np = subprocess.Popen(["sleep", "300"])\nopen("child.pid", "w").write(str(p.pid))\ntime.sleep(300)\n');
    // long enough for python to start its child on a busy machine
    const r = await callTool(runCode, { filename: 'spin.py', timeout: 4 }, env());
    const child = Number(await waitForFile(join(work, 'child.pid')));
    expect(r.timed_out).toBe(true);
    expect(isRunning(child)).toBe(false);
  });
});

describe('run_bash', () => {
  test('runs a command line with bash -c in the work directory', async () => {
    const r = await callTool(runBash, { command: '[[ -n $BASH_VERSION ]] && basename "$PWD"; false' }, env());
    expect(r).toMatchObject({ exit_code: 1, stdout: `${work.split('/').pop()}\n`, timed_out: false });
  });

  test('a timeout kills the process group: the grandchild is gone', async () => {
    const pidFile = join(work, 'gc.pid');
    const r = await callTool(runBash, { command: `bash -c 'sleep 300 & echo $! > ${pidFile}; wait'`, timeout: 0.5 }, env());
    const grandchild = Number(await waitForFile(pidFile));
    expect(r).toMatchObject({ timed_out: true, exit_code: 143 });
    expect(isRunning(grandchild)).toBe(false);
  });

  test('output beyond the limit is cut and flagged', async () => {
    const r = await callTool(runBash, { command: 'seq 1 100000' }, env());
    expect(r.truncated).toBe(true);
    expect(r.stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(r.stdout.endsWith('99999\n100000\n')).toBe(true);
    expect(r.stdout.length).toBeLessThan(50_100);
  });

  test('an empty command is refused, naming command', async () => {
    await expect(callTool(runBash, { command: '  ' }, env())).rejects.toThrow('command is empty');
  });

  test('the schema refuses a timeout of zero and one beyond the maximum', async () => {
    await expect(callTool(runBash, { command: 'true', timeout: 0 }, env())).rejects.toThrow(/timeout/);
    await expect(callTool(runBash, { command: 'true', timeout: 7201 }, env())).rejects.toThrow(/timeout/);
  });
});

describe('the environment of the code', () => {
  test('svc credentials are not passed on; the rest of the skill environment is', async () => {
    const r = await callTool(runBash, { command: 'echo "[$PROVIDERA_API_KEY][$SVC_GUI_TOKEN][$MY_SERVICE_TOKEN][$SVC_PROBE]"' }, env({ PROVIDERA_API_KEY: 'sk-1', SVC_GUI_TOKEN: 't', MY_SERVICE_TOKEN: 'x', SVC_PROBE: 'kept' }));
    expect(r.stdout).toBe('[][][][kept]\n');
  });
});
