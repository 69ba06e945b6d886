import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../../src/core/errors.ts';
import { emitResults } from '../../../../src/skills/coding/emit-results.ts';
import { readFile } from '../../../../src/coding/read-file.ts';
import { runBash } from '../../../../src/coding/run-bash.ts';
import { runCode } from '../../../../src/coding/run-code.ts';
import { writeCode } from '../../../../src/coding/write-code.ts';
import type { ToolDef } from '../../../../src/mcp/tool.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { callTool } from './tool-call.ts';

let base: string;
let work: string;
let outside: string;
beforeEach(() => {
  base = tempDir();
  work = join(base, 'work');
  outside = join(base, 'outside');
  mkdirSync(work);
  mkdirSync(outside);
  // files a tool that escaped could read or run
  writeFileSync(join(outside, 'secret.py'), 'print("escaped")\n');
  writeFileSync(join(outside, 'results.json'), '{}');
  symlinkSync(outside, join(work, 'link'));
});
afterEach(() => removeDir(base));

const env = () => ({ PATH: process.env.PATH, SVC_WORK_DIR: work });

/** Each tool that takes a path, with arguments that put a given path in that place. */
const PATH_TOOLS: [string, ToolDef<any>, (p: string) => Record<string, unknown>][] = [
  ['write_code filename', writeCode, (p) => ({ filename: p, code: 'print(1)\n' })],
  ['run_code filename', runCode, (p) => ({ filename: p })],
  ['read_file path', readFile, (p) => ({ path: p })],
  ['emit_results file', emitResults, (p) => ({ measurements: { a: 1 }, file: p })],
];

/** ABS stands for the temp directory, known only once a test runs. */
const escapes = (name: string) => [`../outside/${name}`, `sub/../../outside/${name}`, `ABS/outside/${name}`, `link/${name}`];

describe('every path argument stays inside the work directory', () => {
  for (const [label, tool, args] of PATH_TOOLS) {
    const name = label.startsWith('emit') ? 'results.json' : 'secret.py';
    const what = label.split(' ')[1];
    test.each(escapes(name))(`${label}: %s is refused and nothing outside changes`, async (given) => {
      const p = given.replace('ABS', base);
      const before = statSync(join(outside, name)).mtimeMs;
      const err = await callTool(tool, args(p), env()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InputError);
      expect((err as Error).message).toBe(`${what} '${p}' is outside ${work}`);
      expect(readdirSync(outside).sort()).toEqual(['results.json', 'secret.py']);
      expect(statSync(join(outside, name)).mtimeMs).toBe(before);
    });
  }

  test.each(PATH_TOOLS)('%s: a name or path longer than the filesystem allows is refused in one short line', async (_, tool, args) => {
    const what = _.split(' ')[1];
    const name = `${'n'.repeat(300)}.json`;
    const err = await callTool(tool, args(name), env()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toBe(`${what} has a name of 305 bytes ('${'n'.repeat(37)}...'), at most 255`);
    const deep = `${'d/'.repeat(2100)}x.json`;
    expect((await callTool(tool, args(deep), env()).catch((e: unknown) => e)).message).toMatch(new RegExp(`^${what} is too long: \\d+ bytes with work_dir, at most 4095$`));
    expect(readdirSync(work)).toEqual(['link']);
  });

  test('an absolute path inside the work directory is accepted', async () => {
    const r = await callTool(writeCode, { filename: join(work, 'in.py'), code: 'x = 1\n' }, env());
    expect(r.path).toBe(join(work, 'in.py'));
  });
});

describe('work_dir', () => {
  const ALL: [string, ToolDef<any>, Record<string, unknown>][] = [
    ['write_code', writeCode, { filename: 'a.py', code: '' }],
    ['run_code', runCode, { filename: 'a.py' }],
    ['run_bash', runBash, { command: 'true' }],
    ['read_file', readFile, { path: 'a.py' }],
    ['emit_results', emitResults, { measurements: { a: 1 } }],
  ];

  test.each(ALL)('%s refuses a relative work_dir, naming it', async (_, tool, args) => {
    await expect(callTool(tool, { ...args, work_dir: 'rel/dir' }, env())).rejects.toThrow("work_dir 'rel/dir' is not an absolute path");
    expect(existsSync(join(process.cwd(), 'rel'))).toBe(false);
  });

  test('a relative SVC_WORK_DIR is refused, naming the variable', async () => {
    await expect(callTool(runBash, { command: 'true' }, { PATH: process.env.PATH, SVC_WORK_DIR: 'relative' })).rejects.toThrow("SVC_WORK_DIR 'relative' is not an absolute path");
  });

  test('a missing work directory is created; an empty work_dir falls back to SVC_WORK_DIR', async () => {
    const fresh = join(base, 'new', 'deeper');
    const r = await callTool(runBash, { command: 'pwd', work_dir: fresh }, env());
    expect(r.stdout).toBe(`${fresh}\n`);
    expect((await callTool(runBash, { command: 'pwd', work_dir: '' }, env())).stdout).toBe(`${work}\n`);
  });

  test('a work_dir that is a file is refused', async () => {
    writeFileSync(join(base, 'plain'), '');
    await expect(callTool(runBash, { command: 'true', work_dir: join(base, 'plain') }, env())).rejects.toThrow(/work_dir '.*plain' cannot be used/);
  });
});
