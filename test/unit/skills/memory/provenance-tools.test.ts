import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, ok, serverPerFileRunPerTest } from './memory-fixture.ts';

const t = serverPerFileRunPerTest();
const experiments = () => join(t.run.base, 'experiments');

const sha256 = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('hex');

/** A node directory with files and its node_report.json, as a run leaves them. */
function nodeDir(runId: string, node: string, files: Record<string, string>, report: Record<string, unknown>): string {
  const dir = join(experiments(), runId, node);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  writeFileSync(join(dir, 'node_report.json'), JSON.stringify({ schema_version: 1, node_id: node, label: 'draft', depth: 1, ...report }));
  return dir;
}

/** A successful node's report in the wire format (files_changed with hashes, classified artifacts without). */
function successReport(node: string) {
  return {
    schema_version: 1,
    node_id: node,
    parent_id: 'root',
    label: 'improve',
    depth: 1,
    status: 'success',
    files_changed: { added: [{ path: 'gemm.c', sha256: sha256('int main(){}') }], modified: [], deleted: [], inherited_unchanged: [] },
    what_was_done: 'tiled the GEMM loop',
    metrics: { gflops: 812.5, time_s: 0.4, converged: true, notes: 'n/a' },
    self_assessment: { succeeded: true, headline: 'Tiling raises GEMM to 812 GFLOPS', concerns: [] },
    next_steps_hints: ['try 64x64 tiles', 'vectorise the inner loop'],
    build_command: 'make',
    run_command: './gemm 4096',
    artifacts: [
      { filename: 'results.csv', role: 'data_output' },
      { filename: 'gemm.c', role: 'source' },
    ],
  };
}

describe('consolidate_node_memory', () => {
  test('a successful report yields a result with artifacts and hashes, a procedure and a reflection', async () => {
    const work = nodeDir('r1', 'n1', { 'gemm.c': 'int main(){}', 'results.csv': 'gflops\n812.5\n' }, {});
    writeFileSync(join(t.run.checkpoint, 'metric_contract.json'), JSON.stringify({ key: 'time_s', required_measured: ['time_s'] }));
    const r = await ok('consolidate_node_memory', { node_id: 'n1', node_report: successReport('n1'), work_dir: work, run_id: 'r1' }, t.run.env('n1'));
    expect(r).toEqual({ written: [{ kind: 'experiment_result', entry_id: expect.any(String) }, { kind: 'procedure', entry_id: expect.any(String) }, { kind: 'reflection', entry_id: expect.any(String) }], deduplicated: false });
    const [res, proc, refl] = (await ok('get_node_memory', { node_id: 'n1' }, t.run.env('n1'))).entries;
    expect(res.text).toBe('Tiling raises GEMM to 812 GFLOPS (gflops=812.5, time_s=0.4)');
    expect(res.metadata).toEqual({
      metric: { name: 'time_s', value: 0.4 },
      metrics: { gflops: 812.5, time_s: 0.4 },
      artifact_refs: [
        { path: 'gemm.c', sha256: sha256('int main(){}'), role: 'source' },
        { path: 'results.csv', sha256: sha256('gflops\n812.5\n'), role: 'data_output' },
      ],
      work_dir: work,
      node_report_ref: { node_id: 'n1', run_id: 'r1' },
      consolidated_from: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(proc).toMatchObject({ kind: 'procedure', text: 'How node n1 was built and run: make ; ./gemm 4096', metadata: { commands: ['make', './gemm 4096'] } });
    expect(refl).toMatchObject({ kind: 'reflection', text: 'try 64x64 tiles; vectorise the inner loop', metadata: { confidence: 0.4 } });
    // the result it wrote is evidence a descendant can use
    const ctx = await ok('get_verified_context', { ancestor_ids: ['root', 'n1'] }, t.run.env('child'));
    expect(ctx.verified.map((c: any) => c.entry_id)).toEqual([r.written[0].entry_id]);
  });

  test('the same report again writes nothing and returns the earlier entries', async () => {
    const work = nodeDir('r1', 'n1', { 'gemm.c': 'int main(){}', 'results.csv': 'x' }, {});
    const first = await ok('consolidate_node_memory', { node_id: 'n1', node_report: successReport('n1'), work_dir: work }, t.run.env('n1'));
    const again = await ok('consolidate_node_memory', { node_id: 'n1', node_report: successReport('n1'), work_dir: work }, t.run.env('n1'));
    expect(again).toEqual({ written: first.written, deduplicated: true });
    expect((await ok('get_node_memory', { node_id: 'n1' }, t.run.env('n1'))).entries).toHaveLength(3);
  });

  test('a failed node yields a failure case; the stub of a failed report build too', async () => {
    const work = nodeDir('r1', 'n2', {}, {});
    const failed = { node_id: 'n2', status: 'failed', evaluator_reason: 'did not compile', self_assessment: { concerns: ['no -march flag'] }, metrics: {} };
    const r = await ok('consolidate_node_memory', { node_id: 'n2', node_report: failed, work_dir: work }, t.run.env('n2'));
    expect(r.written.map((w: any) => w.kind)).toEqual(['failure_case']);
    const [entry] = (await ok('get_node_memory', { node_id: 'n2' }, t.run.env('n2'))).entries;
    expect(entry).toMatchObject({ text: 'did not compile', metadata: { status: 'failed', reason: 'did not compile', concerns: ['no -march flag'], artifact_refs: [] } });
    const stub = await ok('consolidate_node_memory', { node_id: 'n3', node_report: { node_id: 'n3', status: 'error' }, work_dir: work }, t.run.env('n3'));
    expect(stub.written.map((w: any) => w.kind)).toEqual(['failure_case']);
    expect((await ok('get_node_memory', { node_id: 'n3' }, t.run.env('n3'))).entries[0].text).toBe('node n3 ended with status error');
  });

  test('bad input is refused and nothing is written', async () => {
    const work = nodeDir('r1', 'n1', {}, {});
    expect(await call('consolidate_node_memory', { node_id: 'n1', node_report: { node_id: 'other', status: 'success' }, work_dir: work }, t.run.env('n1'))).toEqual({
      error: "node_report is the report of node 'other', not of 'n1'",
    });
    expect(await call('consolidate_node_memory', { node_id: 'n1', node_report: { node_id: 'n1', status: 'running' }, work_dir: work }, t.run.env('n1'))).toMatchObject({
      error: expect.stringContaining('node n1 has not finished'),
    });
    expect(await call('consolidate_node_memory', { node_id: 'n1', node_report: { node_id: 'n1' }, work_dir: work }, t.run.env('n1'))).toMatchObject({ error: expect.stringContaining("'node_report.status'") });
    expect(await call('consolidate_node_memory', { node_id: 'n1', node_report: { node_id: 'n1', status: 'failed' }, work_dir: 'relative' }, t.run.env('n1'))).toMatchObject({
      error: expect.stringContaining("work_dir 'relative' is not an absolute path"),
    });
    expect((await ok('get_node_memory', { node_id: 'n1' }, t.run.env('n1'))).entries).toEqual([]);
  });
});

describe('audit_memory', () => {
  test('re-hashes what node reports and memory entries point at, and counts each status', async () => {
    const good = nodeDir('r1', 'n1', { 'gemm.c': 'int main(){}', 'results.csv': 'x' }, successReport('n1'));
    nodeDir('r1', 'n2', { 'gemm.c': 'changed since' }, { ...successReport('n2'), artifacts: [{ filename: 'gone.csv', role: 'log' }] });
    mkdirSync(join(experiments(), 'r1', 'n3'));
    writeFileSync(join(experiments(), 'r1', 'n3', 'node_report.json'), '{not json');
    nodeDir('r2', 'm1', { 'gemm.c': 'int main(){}' }, { status: 'success', files_changed: { added: [{ path: 'gemm.c', sha256: sha256('int main(){}') }] } });
    // a memory entry resting on a file in r1/n1 that is later changed
    writeFileSync(join(good, 'table.csv'), 'before');
    await ok('add_experiment_result', { node_id: 'n1', text: 'table', artifact_refs: [{ path: 'table.csv' }], work_dir: good }, t.run.env('n1'));
    writeFileSync(join(good, 'table.csv'), 'after');

    const r = await ok('audit_memory', { experiments_root: experiments(), run_id: 'r1' }, t.run.env());
    expect(r.summary).toEqual({ total: 6, verified: 1, mismatch: 2, missing: 1, unhashed: 1, invalid: 1, node_reports: 3, memory_entries: 1 });
    const byKey = Object.fromEntries(r.results.map((x: any) => [`${x.source}:${x.node_id}:${x.path}`, x.status]));
    expect(byKey).toEqual({
      'node_report:n1:gemm.c': 'verified',
      'node_report:n1:results.csv': 'unhashed',
      'node_report:n2:gemm.c': 'mismatch',
      'node_report:n2:gone.csv': 'missing',
      'node_report:n3:node_report.json': 'invalid',
      'memory:n1:table.csv': 'mismatch',
    });
    expect(r.results.find((x: any) => x.source === 'memory')).toEqual({
      source: 'memory',
      run_id: 'r1',
      node_id: 'n1',
      entry_id: expect.any(String),
      path: 'table.csv',
      role: 'unknown',
      recorded_sha256: sha256('before'),
      current_sha256: sha256('after'),
      status: 'mismatch',
    });
    const everything = await ok('audit_memory', { experiments_root: experiments() }, t.run.env());
    expect(everything.summary).toMatchObject({ total: 7, verified: 2, node_reports: 4, memory_entries: 1 });
  });

  test('bad roots and run ids are refused', async () => {
    mkdirSync(experiments());
    expect(await call('audit_memory', { experiments_root: 'experiments' }, t.run.env())).toEqual({ error: "experiments_root 'experiments' is not an absolute path" });
    expect(await call('audit_memory', { experiments_root: join(t.run.base, 'nope') }, t.run.env())).toMatchObject({ error: expect.stringContaining('is not a directory') });
    expect(await call('audit_memory', { experiments_root: experiments(), run_id: '../x' }, t.run.env())).toMatchObject({ error: "run_id '../x' is not valid (ids are directory names: letters, digits, . _ -)" });
    expect(await call('audit_memory', { experiments_root: experiments(), run_id: 'r9' }, t.run.env())).toMatchObject({ error: expect.stringContaining('unknown run r9') });
  });

  test('an artifact path leading out of the node directory is invalid, not read', async () => {
    writeFileSync(join(t.run.base, 'secret.txt'), 'outside');
    nodeDir('r1', 'n1', {}, { status: 'success', artifacts: [{ filename: '../../../secret.txt', sha256: sha256('outside') }] });
    const r = await ok('audit_memory', { experiments_root: experiments() }, t.run.env());
    expect(r.results).toEqual([expect.objectContaining({ path: '../../../secret.txt', status: 'invalid', current_sha256: null })]);
  });
});
