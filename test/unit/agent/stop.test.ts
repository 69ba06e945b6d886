import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNodeRunner } from '../../../src/agent/runner.ts';
import { type Bench, bench, call, node, recordingEvaluate, task } from './helpers.ts';

let b: Bench | undefined;
afterEach(async () => {
  await b?.close();
  b = undefined;
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A node whose command starts `sleep 30` in the background, records its pid and waits for it;
 * the node is aborted with `reason` once the sleep runs.
 */
async function sleepingNode(reason?: unknown) {
  b = bench([call('run_bash', { command: 'sleep 30 & echo $! > sleep.pid; wait', timeout: 120 })], { timeoutNodeS: 600 });
  const pidFile = join(b.experimentsDir, 'node_x_root', 'sleep.pid');
  const controller = new AbortController();
  const evaluate = recordingEvaluate();
  const running = createNodeRunner({ evaluate })(task(b, node('node_x_root'), null, controller.signal));
  while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') await Bun.sleep(20);
  const pid = Number(readFileSync(pidFile, 'utf8'));
  expect(alive(pid)).toBe(true);
  controller.abort(reason);
  return { out: await running, pid, evaluate };
}

describe('stopping a node', () => {
  test('at its time limit the node fails at once and its processes are gone', async () => {
    const { out, pid, evaluate } = await sleepingNode(new DOMException('the node time limit passed', 'TimeoutError'));
    expect(out.status).toBe('failed');
    expect(out.error_log).toBe('node stopped after its time limit (SVC_TIMEOUT_NODE=600 s); its processes were ended');
    expect(evaluate.calls).toHaveLength(0);
    for (let i = 0; i < 100 && alive(pid); i++) await Bun.sleep(50);
    expect(alive(pid)).toBe(false);
    // the node is still reported
    expect(JSON.parse(readFileSync(out.node_report_path as string, 'utf8'))).toMatchObject({ status: 'failed', node_id: 'node_x_root' });
    expect(out.trace_log.at(-1)).toStartWith('· node stopped after its time limit');
  }, 30_000);

  test('when the run stops the node says so', async () => {
    const { out, pid } = await sleepingNode();
    expect(out.error_log).toBe('node stopped because the run stopped; its processes were ended');
    for (let i = 0; i < 100 && alive(pid); i++) await Bun.sleep(50);
    expect(alive(pid)).toBe(false);
  }, 30_000);

  test('a signal already aborted asks the model nothing', async () => {
    b = bench([]);
    const controller = new AbortController();
    controller.abort(new Error('SIGINT'));
    const out = await createNodeRunner({ evaluate: recordingEvaluate() })(task(b, node('node_x_root'), null, controller.signal));
    expect(out.error_log).toBe('node stopped because the run stopped (SIGINT); its processes were ended');
    expect(b.server.requests).toHaveLength(0);
  }, 30_000);
});

test('the node keeps its time limit by itself when nobody aborts it', async () => {
  b = bench([call('run_bash', { command: 'sleep 30 & echo $! > sleep.pid; wait', timeout: 120 })], { timeoutNodeS: 2 });
  // the skill server is started first, so the limit is spent on the node's own command
  expect(await b.ctx.pool.call('run_bash', { command: 'true', work_dir: b.dir })).toEqual({ result: expect.objectContaining({ exit_code: 0 }) });
  const out = await createNodeRunner({ evaluate: recordingEvaluate() })(task(b, node('node_x_root')));
  expect(out.error_log).toBe('node stopped after its time limit (SVC_TIMEOUT_NODE=2 s); its processes were ended');
  const pid = Number(readFileSync(join(b.experimentsDir, 'node_x_root', 'sleep.pid'), 'utf8'));
  for (let i = 0; i < 100 && alive(pid); i++) await Bun.sleep(50);
  expect(alive(pid)).toBe(false);
}, 30_000);

test('a time limit longer than a timer can hold does not stop the node at once', async () => {
  b = bench([call('run_bash', { command: 'echo 1 > a.txt; echo 1' }), { text: '{"status":"success","summary":"ok","artifacts":[]}' }], { timeoutNodeS: 1e9 });
  const out = await createNodeRunner({ evaluate: recordingEvaluate() })(task(b, node('node_x_root')));
  expect(out.status).toBe('success');
  expect(out.error_log).toBeNull();
}, 30_000);
