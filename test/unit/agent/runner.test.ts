import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNodeRunner } from '../../../src/agent/runner.ts';
import { type Bench, bench, bodies, call, finish, node, recordingEvaluate, task } from './helpers.ts';
import { lacks } from '../../support/components.ts';
import { ensureContainerRuntime } from '../../support/container.ts';

let b: Bench | undefined;
afterEach(async () => {
  await b?.close();
  b = undefined;
});

const SUM = 'import time\nt=time.time()\ns=sum(range(1000000))\nprint("sum", s)\nprint("time_s", round(time.time()-t, 3))\n';

const runtime = await ensureContainerRuntime();
const real = 'reason' in runtime ? null : runtime;

describe('a node run', () => {
  test.skipIf(real === null)("in the run's container: the commands run there, and the report names the image", async () => {
    b = bench([call('run_bash', { command: 'echo "in $(pwd)"; ls /sys/class/net' }), finish('listed the interfaces')]);
    b.ctx.exec = { container: { runtime: real!.runtime, binary: real!.binary, image: real!.image, pull: 'never', digest: 'sha256:0123' } };
    const root = node('node_root');
    const out = await createNodeRunner({ evaluate: recordingEvaluate() })(task(b, root));
    const report = JSON.parse(readFileSync(out.node_report_path as string, 'utf8'));
    expect(report).toMatchObject({ executor: 'local', container: { runtime: real!.runtime, image: real!.image, digest: 'sha256:0123' } });
    // the model saw the command's output from inside: the work dir at its own path, loopback only
    const seen = bodies(b).at(-1)?.messages.find((m) => m.role === 'tool')?.content;
    expect(JSON.parse(String(seen)).stdout).toBe(`in ${b.workDir('node_root')}\nlo\n`);
  });

  test.skipIf(lacks('python3'))('writes code, runs it, finishes with its JSON, is evaluated and reported', async () => {
    b = bench([call('write_code', { filename: 'sum.py', code: SUM }), call('run_code', { filename: 'sum.py' }), finish('summed to 499999500000', ['sum.py'])]);
    const evaluate = recordingEvaluate();
    const root = node('node_x_root');
    const out = await createNodeRunner({ evaluate })(task(b, root));
    expect(out.status).toBe('success');
    expect(out.error_log).toBeNull();
    expect(out.metrics._scientific_score).toBe(0.5);
    expect(out.has_real_data).toBe(true);
    expect(out.eval_summary).toBe('measured a time');
    expect(out.trace_log[0]).toStartWith('→ write_code({"filename":"sum.py"');
    expect(out.trace_log.some((l) => l.startsWith('  ← ') && l.includes('sum 499999500000'))).toBe(true);
    expect(out.artifacts).toContainEqual(expect.objectContaining({ type: 'code', filename: 'sum.py', content: SUM }));
    expect(out.artifacts).toContainEqual(expect.objectContaining({ type: 'result', tool: 'run_code' }));
    expect(out.artifacts).toContainEqual({ type: 'file', path: 'sum.py' });
    const workDir = join(b.experimentsDir, root.id);
    expect(readFileSync(join(workDir, 'sum.py'), 'utf8')).toBe(SUM);
    expect(evaluate.calls).toHaveLength(1);
    expect(evaluate.calls[0]?.summary).toBe('summed to 499999500000');
    expect(evaluate.calls[0]?.workDir).toBe(workDir);

    // the report
    expect(out.node_report_path).toBe(join(workDir, 'node_report.json'));
    const report = JSON.parse(readFileSync(out.node_report_path as string, 'utf8'));
    expect(report).toMatchObject({
      schema_version: 1,
      node_id: root.id,
      parent_id: null,
      status: 'success',
      label: 'draft',
      what_was_done: 'summed to 499999500000',
      evaluator_reason: 'measured a time',
      migration_source: 'fresh',
      // where the commands ran: this machine, no container
      executor: 'local',
      container: null,
      self_assessment: { succeeded: true, headline: 'summed to 499999500000', concerns: ['novelty (0.20): a known loop'] },
      next_steps_hints: ['rigor (0.50): one run only'],
      run_command: 'run_code sum.py',
      trace_log_summary: '2 tool call(s): write_code×1, run_code×1',
    });
    expect(report.files_changed.added).toEqual([{ path: 'sum.py', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(typeof report.hostname).toBe('string');
    expect(report.cpu_info.threads).toBeGreaterThan(0);
    expect(typeof report.started_at).toBe('string');
    expect(existsSync(join(workDir, '_run_env.json'))).toBe(true);

    // what the model was asked
    const reqs = bodies(b);
    expect(reqs).toHaveLength(3);
    const system = reqs[0]?.messages[0]?.content as string;
    expect(system.split('\n')[0]).toBe('<!-- prompt: agent/system -->');
    expect(system).toContain(`work directory: ${workDir}`);
    expect(system).toContain('- files in it now: none\n');
    expect(system).toContain(`CPUs available: ${b.ctx.workflow.resources.cpus}`);
    expect(system).toContain('at most 10 steps');
    expect(system).toContain('- run_code: ');
    expect(system).toContain('DRAFT:');
    const first = reqs[0]?.messages[1]?.content as string;
    expect(first.split('\n')[0]).toBe('<!-- prompt: agent/node_task -->');
    expect(first).toContain(b.ctx.goal);
    expect(first).toContain('a child that changes no file is sterile');
    // no tool is offered its work_dir, and the tools that run before the search are not offered
    const names = reqs[0]?.tools?.map((t) => t.function.name) ?? [];
    expect(names).toContain('run_bash');
    expect(names).not.toContain('generate_ideas');
    for (const t of reqs[0]?.tools ?? []) expect(Object.keys((t.function.parameters.properties ?? {}) as object)).not.toContain('work_dir');
    // the model may finish only once code ran
    expect(reqs.map((r) => r.tool_choice)).toEqual(['required', 'required', 'auto']);
  }, 30_000);

  test('the same node asks the same first request: prompts hold no time, pid or host', async () => {
    const firsts: string[] = [];
    for (let i = 0; i < 2; i++) {
      b = bench([call('run_bash', { command: 'echo hi > a.txt; cat a.txt' }), finish('ok')]);
      await createNodeRunner({ evaluate: recordingEvaluate() })(task(b, node('node_x_root')));
      firsts.push(JSON.stringify(bodies(b)[0]?.messages).replaceAll(b.dir, '<dir>'));
      await b.close();
      b = undefined;
    }
    expect(firsts[0]).toBe(firsts[1] as string);
  }, 30_000);

  test('a child is told its parent and direction; changing nothing makes it sterile and unevaluated', async () => {
    b = bench([call('run_bash', { command: 'cat sum.py' }), finish('looked at it')]);
    const parent = node('node_x_root', { status: 'success', metrics: { time_s: 0.2, _scientific_score: 0.4 }, eval_summary: 'a first loop' });
    writeFileSync(join(b.workDir(parent.id), 'sum.py'), SUM);
    const child = node('node_aaaaaaaa', { parent_id: parent.id, depth: 1, label: 'improve', raw_label: 'improve', ancestor_ids: [parent.id], original_direction: 'vectorise the loop' });
    writeFileSync(join(b.workDir(child.id), 'sum.py'), SUM);
    const evaluate = recordingEvaluate();
    const out = await createNodeRunner({ evaluate })(task(b, child, parent));
    expect(evaluate.calls).toHaveLength(0);
    expect(out.metrics).toEqual({ _sterile: true, _scientific_score: 0 });
    expect(out.has_real_data).toBe(false);
    expect(out.error_log).toContain('sterile');
    const first = bodies(b)[0]?.messages[1]?.content as string;
    expect(first).toContain('This node is a improve node.');
    expect(first).toContain('Direction: vectorise the loop');
    expect(bodies(b)[0]?.messages[0]?.content).toContain('- files in it now: sum.py\n');
    expect(first).toContain('node_x_root (draft, success)');
    expect(first).toContain('Summary: a first loop');
    expect(first).toContain('"time_s":0.2');
    expect(bodies(b)[0]?.messages[0]?.content).toContain('IMPROVE:');
    const report = JSON.parse(readFileSync(out.node_report_path as string, 'utf8'));
    expect(report.files_changed).toEqual({ added: [], modified: [], deleted: [], inherited_unchanged: [{ path: 'sum.py', sha256: expect.any(String) }] });
    expect(report.metrics._sterile).toBe(true);
  }, 30_000);

  test.skipIf(lacks('python3'))('a child that edits a file is not sterile and is evaluated', async () => {
    b = bench([call('run_bash', { command: 'echo "# faster" >> sum.py && python3 sum.py' }), finish('edited')]);
    const parent = node('node_x_root', { status: 'success' });
    writeFileSync(join(b.workDir(parent.id), 'sum.py'), SUM);
    writeFileSync(join(b.workDir(parent.id), 'results.csv'), 'a\n1\n');
    const child = node('node_bbbbbbbb', { parent_id: parent.id, depth: 1, label: 'improve' });
    writeFileSync(join(b.workDir(child.id), 'sum.py'), SUM);
    const evaluate = recordingEvaluate();
    const out = await createNodeRunner({ evaluate })(task(b, child, parent));
    expect(evaluate.calls).toHaveLength(1);
    expect(out.metrics._sterile).toBeUndefined();
    const report = JSON.parse(readFileSync(out.node_report_path as string, 'utf8'));
    expect(report.files_changed.modified).toEqual([{ path: 'sum.py', sha256_before: expect.any(String), sha256_after: expect.any(String) }]);
    // an output the child never inherits is not counted as deleted
    expect(report.files_changed.deleted).toEqual([]);
  }, 30_000);

  test('the idea, its plan and primary metric are part of the task', async () => {
    b = bench([call('run_bash', { command: 'echo 1 > a.txt; echo 1' }), finish('ok')]);
    b.ctx.idea = () => ({ ideas: [{ title: 'Loop unrolling', description: 'Unroll the loop by four.', experiment_plan: '§1 baseline\n§2 unrolled' }], primary_metric: 'time_s', higher_is_better: false });
    await createNodeRunner({ evaluate: recordingEvaluate() })(task(b, node('node_x_root')));
    const first = bodies(b)[0]?.messages[1]?.content as string;
    expect(first).toContain('## Loop unrolling\n\nUnroll the loop by four.\n\n### Plan\n§1 baseline\n§2 unrolled\n\nPrimary metric: time_s (lower is better)');
    expect(first).toContain('none: this is the root node');
  }, 30_000);

  test('every model call is booked to the node in the cost ledger', async () => {
    b = bench([call('run_bash', { command: 'echo 1 > a.txt; echo 1' }), finish('ok')], {}, true);
    await createNodeRunner({ evaluate: recordingEvaluate() })(task(b, node('node_x_root')));
    const lines = readFileSync(join(b.checkpoint, 'cost_trace.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l).toMatchObject({ phase: 'bfts', node_id: 'node_x_root', component: 'agent', op: 'react_step' });
  }, 30_000);
});
