import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNodeRunner } from '../../../src/agent/runner.ts';
import { type Bench, bench, bodies, call, finish, node, recordingEvaluate, task } from './helpers.ts';

let b: Bench | undefined;
afterEach(async () => {
  await b?.close();
  b = undefined;
});

const run = (bb: Bench, signal?: AbortSignal) => createNodeRunner({ evaluate: recordingEvaluate() })(task(bb, node('node_x_root'), null, signal));
/** The tool results the model read back, in order. */
const toolResults = (bb: Bench): string[] => (bodies(bb).at(-1)?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
/** An OpenAI answer with one tool call whose arguments are the given raw text. */
const rawCall = (name: string, args: string) => ({
  json: { id: 'x', object: 'chat.completion', created: 0, model: 'qwen3:4b', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_raw', type: 'function', function: { name, arguments: args } }] }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
});

describe('the ReAct loop', () => {
  test('at the step limit a node that ran code with output succeeds', async () => {
    b = bench([call('run_bash', { command: 'echo one > a.txt; echo one' }), call('run_bash', { command: 'echo two' }), call('read_file', { path: 'a.txt' })], { maxReact: 3 });
    const out = await run(b);
    expect(out.status).toBe('success');
    expect(bodies(b)).toHaveLength(3);
    expect(out.trace_log).toContain('· ReAct step limit (SVC_MAX_REACT=3) reached');
  }, 30_000);

  test('at the step limit a node that never ran code fails', async () => {
    b = bench([call('write_code', { filename: 'a.py', code: 'print(1)\n' }), call('read_file', { path: 'a.py' })], { maxReact: 2 });
    const out = await run(b);
    expect(out.status).toBe('failed');
    expect(out.error_log).toBe('ReAct step limit (SVC_MAX_REACT=2) reached');
    expect(out.has_real_data).toBe(false);
    expect(bodies(b)).toHaveLength(2);
    // a failed node is reported too
    expect(JSON.parse(readFileSync(out.node_report_path as string, 'utf8')).status).toBe('failed');
  }, 30_000);

  test('finishing before any code ran is refused once, then accepted after a run', async () => {
    b = bench([finish('done already'), call('run_bash', { command: 'echo 42 > out.txt; echo 42' }), finish('printed 42')]);
    const out = await run(b);
    expect(out.status).toBe('success');
    const msgs = bodies(b)[1]?.messages ?? [];
    expect(msgs.at(-1)).toEqual({ role: 'user', content: expect.stringContaining('Refused: you have not run any code yet') });
    expect(out.eval_summary).toBe('measured a time');
  }, 30_000);

  test('finishing twice before any code ran fails the node', async () => {
    b = bench([finish('done'), finish('done, really')]);
    const out = await run(b);
    expect(out.status).toBe('failed');
    expect(out.error_log).toBe('the model finished twice without running any code');
    expect(out.trace_log.at(-1)).toBe('· the model finished twice without running any code');
  }, 30_000);

  test('"status": "failed" and prose without JSON are refused with a nudge', async () => {
    b = bench([call('run_bash', { command: 'echo x > x.txt; exit 3' }), { text: '{"status":"failed","summary":"it broke"}' }, { text: 'I think I am done.' }, finish('fixed')]);
    const out = await run(b);
    expect(out.status).toBe('success');
    const last = bodies(b).at(-1)?.messages ?? [];
    const nudges = last.filter((m) => m.role === 'user').map((m) => String(m.content));
    expect(nudges[1]).toContain('"status": "failed" is not accepted');
    expect(nudges[2]).toContain('Call a tool, or finish with only the JSON object');
  }, 30_000);

  test('tools always work in the node directory, whatever work_dir the model gives', async () => {
    b = bench([call('write_code', { filename: 'w.txt', code: 'hello\n', work_dir: '/tmp' }), call('run_bash', { command: 'pwd; echo $SVC_CURRENT_NODE_ID', work_dir: '/' }), finish('ok')]);
    const out = await run(b);
    const workDir = join(b.experimentsDir, 'node_x_root');
    expect(readFileSync(join(workDir, 'w.txt'), 'utf8')).toBe('hello\n');
    expect(existsSync('/tmp/w.txt') && readFileSync('/tmp/w.txt', 'utf8') === 'hello\n').toBe(false);
    // the node's commands also know which node they run for
    expect(JSON.parse(toolResults(b)[1] as string).stdout).toBe(`${workDir}\nnode_x_root\n`);
    expect(out.status).toBe('success');
  }, 30_000);

  test('a long tool result reaches the model cut to head and tail', async () => {
    b = bench([call('run_bash', { command: 'echo START; head -c 9000 /dev/zero | tr "\\0" x; echo; echo END' }), finish('long')]);
    await run(b);
    const result = toolResults(b)[0] as string;
    expect(result.length).toBeLessThan(4100);
    expect(result).toContain('START');
    expect(result).toContain('END');
    expect(result).toMatch(/…\[\d+ characters cut\]…/);
  }, 30_000);

  test('an unknown tool and bad arguments come back to the model as errors, not a crash', async () => {
    b = bench([call('rm_rf', { path: '/' }), call('run_code', { filename: 5 }), rawCall('run_bash', '{"command": "echo'), call('run_bash', { command: 'echo ok > ok.txt; echo ok' }), finish('ok')]);
    const out = await run(b);
    expect(out.status).toBe('success');
    const results = toolResults(b);
    expect(results).toHaveLength(4);
    expect(JSON.parse(results[0] as string).error).toStartWith("unknown tool 'rm_rf': this node can call ");
    expect(JSON.parse(results[1] as string).error).toContain('filename');
    expect(JSON.parse(results[2] as string).error).toContain('not a JSON object');
    expect(JSON.parse(results[3] as string).stdout).toBe('ok\n');
    expect(out.trace_log.filter((l) => l.startsWith('  ← error: '))).toHaveLength(3);
  }, 30_000);

  test('a model that fails ends the node with the reason', async () => {
    b = bench([]);
    const out = await run(b);
    expect(out.status).toBe('failed');
    expect(out.error_log).toStartWith('model call failed at step 1: ');
    expect(out.trace_log).toEqual([`· ${out.error_log}`]);
  }, 30_000);
});
