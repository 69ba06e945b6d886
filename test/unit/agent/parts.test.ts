import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contextWindow } from '../../../src/agent/context.ts';
import { diffFiles, hashTree, isSterile } from '../../../src/agent/files-diff.ts';
import { parseFinish } from '../../../src/agent/finish.ts';
import { writeReport } from '../../../src/agent/report.ts';
import { headTail } from '../../../src/agent/truncate.ts';
import type { ChatMessage } from '../../../src/llm/types.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir('svc-agent-parts-');
});
afterEach(() => removeDir(dir));

describe('parseFinish', () => {
  test('reads the JSON bare, fenced, in prose and after a think block', () => {
    expect(parseFinish('{"status":"success","summary":"s","artifacts":["a"]}')).toEqual({ kind: 'success', summary: 's', artifacts: ['a'] });
    expect(parseFinish('Done:\n```json\n{"status": "success", "summary": "s"}\n```')).toEqual({ kind: 'success', summary: 's', artifacts: [] });
    expect(parseFinish('<think>{"status":"failed"}</think> result {"status":"SUCCESS","summary":"x"} ok')).toEqual({ kind: 'success', summary: 'x', artifacts: [] });
  });
  test('failed, unknown status and no JSON', () => {
    expect(parseFinish('{"status":"failed","summary":"broke"}')).toEqual({ kind: 'failed', summary: 'broke' });
    expect(parseFinish('{"status":"maybe"}')).toEqual({ kind: 'none' });
    expect(parseFinish('I am done')).toEqual({ kind: 'none' });
    expect(parseFinish('[1,2]')).toEqual({ kind: 'none' });
    expect(parseFinish('{"summary":"no status"}')).toEqual({ kind: 'none' });
  });
});

describe('headTail', () => {
  test('keeps short text and cuts the middle of long text', () => {
    expect(headTail('abc', 10)).toBe('abc');
    const cut = headTail(`${'a'.repeat(50)}${'b'.repeat(50)}`, 20);
    expect(cut).toBe(`${'a'.repeat(10)}\n…[80 characters cut]…\n${'b'.repeat(10)}`);
  });
});

describe('contextWindow', () => {
  const tool = (i: number, content: string): ChatMessage[] => [
    { role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name: 'run_bash', args: {} }] },
    { role: 'tool', toolCallId: `c${i}`, name: 'run_bash', content },
  ];
  test('keeps system, task and the newest messages, never starting on a tool result, and shortens old long results', () => {
    const history: ChatMessage[] = [{ role: 'system', content: 'sys' }, { role: 'user', content: 'task' }];
    for (let i = 0; i < 15; i++) history.push(...tool(i, `${i}:${'x'.repeat(1000)}`));
    const w = contextWindow(history);
    expect(w.slice(0, 2)).toEqual(history.slice(0, 2));
    expect(w[2]?.role).toBe('assistant');
    expect(w.length).toBeLessThanOrEqual(22);
    expect(w.at(-1)).toEqual(history.at(-1) as ChatMessage);
    const tools = w.filter((m) => m.role === 'tool');
    expect(tools.at(-1)?.content.length).toBe(1003);
    expect(tools[0]?.content.length).toBeLessThan(500);
    expect(tools[0]?.content).toContain('characters cut');
  });
  test('a short history is sent whole', () => {
    const history: ChatMessage[] = [{ role: 'system', content: 'sys' }, { role: 'user', content: 'task' }, ...tool(0, 'out')];
    expect(contextWindow(history)).toEqual(history);
  });
});

describe('file diff', () => {
  test('skips caches, build output and the run records', () => {
    for (const d of ['.git', '__pycache__', 'node_modules', 'build', 'dist', 'src']) mkdirSync(join(dir, d));
    for (const f of ['.git/HEAD', '__pycache__/a.pyc', 'node_modules/x.js', 'build/a.o', 'dist/a', 'node_report.json', '_run_env.json', 'tree.json', 'run.log', 'src/main.c']) writeFileSync(join(dir, f), 'x');
    expect([...hashTree(dir).keys()]).toEqual(['src/main.c']);
  });
  test('added, modified, deleted and unchanged; a missing parent means everything is added', () => {
    const p = join(dir, 'p');
    const c = join(dir, 'c');
    mkdirSync(p);
    mkdirSync(c);
    writeFileSync(join(p, 'same'), '1');
    writeFileSync(join(c, 'same'), '1');
    writeFileSync(join(p, 'edit'), '1');
    writeFileSync(join(c, 'edit'), '2');
    writeFileSync(join(p, 'gone'), '1');
    writeFileSync(join(p, 'stdout.txt'), 'not inherited');
    writeFileSync(join(c, 'new'), '1');
    const fc = diffFiles(p, c);
    expect(fc.added.map((f) => f.path)).toEqual(['new']);
    expect(fc.modified.map((f) => f.path)).toEqual(['edit']);
    expect(fc.deleted).toEqual(['gone']);
    expect(fc.inherited_unchanged.map((f) => f.path)).toEqual(['same']);
    expect(isSterile(fc)).toBe(false);
    expect(isSterile(diffFiles(c, c))).toBe(true);
    expect(diffFiles(null, c).added.map((f) => f.path)).toEqual(['edit', 'new', 'same']);
  });
});

describe('writeReport', () => {
  test('a report that cannot be built leaves a stub with status error', () => {
    const r = writeReport(dir, 'node_x', () => {
      throw new Error('boom');
    });
    expect(r.error).toBe('node report could not be built: boom');
    expect(JSON.parse(readFileSync(join(dir, 'node_report.json'), 'utf8'))).toEqual({ schema_version: 1, node_id: 'node_x', status: 'error', error: 'node report could not be built: boom' });
  });
});
