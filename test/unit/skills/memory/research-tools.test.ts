import { describe, expect, test } from 'bun:test';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentNameFor, MemoryClient } from '../../../../src/memory/client.ts';
import { writeExperimentContext } from '../../../../src/memory/research/experiment-context.ts';
import { NodeMemory } from '../../../../src/memory/research/node-memory.ts';
import { call, ok, serverPerFileRunPerTest, watchRequests } from './memory-fixture.ts';

const t = serverPerFileRunPerTest();

const sha256 = (text: string) => new Bun.CryptoHasher('sha256').update(text).digest('hex');
const storedCount = async () => {
  const agent = await new MemoryClient({ baseUrl: t.memory.url, timeoutMs: 5000 }).findAgent(agentNameFor(t.run.checkpoint));
  return agent === null ? 0 : (await new MemoryClient({ baseUrl: t.memory.url, timeoutMs: 5000 }).listPassages(agent)).length;
};

/** A result of `node` resting on a file written into the work directory. */
async function result(node: string, text: string, file: string, content: string) {
  writeFileSync(join(t.run.work, file), content);
  return ok('add_experiment_result', { node_id: node, text, metric: { name: 'gflops', value: 1 }, artifact_refs: [{ path: file, role: 'data_output' }] }, t.run.env(node));
}

describe('typed writers', () => {
  test('add_experiment_result records the artifacts with their sha256 and the work directory', async () => {
    writeFileSync(join(t.run.work, 'out.csv'), 'n,gflops\n1,812\n');
    mkdirSync(join(t.run.work, 'fig'));
    const r = await ok(
      'add_experiment_result',
      {
        node_id: 'n1',
        text: 'tiled GEMM reaches 812 GFLOPS',
        metric: { name: 'gflops', value: 812 },
        metrics: { gflops: 812, time_s: 0.4 },
        artifact_refs: [{ path: 'out.csv', role: 'data_output' }, { path: join(t.run.work, 'fig', 'plot.png'), sha256: 'A'.repeat(64) }],
        node_report_ref: { node_id: 'n1', run_id: 'r1' },
      },
      t.run.env('n1'),
    );
    expect(r).toEqual({
      entry_id: expect.any(String),
      node_id: 'n1',
      kind: 'experiment_result',
      metadata: {
        metric: { name: 'gflops', value: 812 },
        metrics: { gflops: 812, time_s: 0.4 },
        artifact_refs: [
          { path: 'out.csv', sha256: sha256('n,gflops\n1,812\n'), role: 'data_output' },
          { path: 'fig/plot.png', sha256: 'a'.repeat(64), role: 'unknown' },
        ],
        node_report_ref: { node_id: 'n1', run_id: 'r1' },
        work_dir: t.run.work,
      },
    });
    expect((await ok('get_node_memory', { node_id: 'n1' }, t.run.env('n1'))).entries[0]).toMatchObject({ kind: 'experiment_result', metadata: r.metadata });
  });

  test('every typed writer refuses another node and an unset current node, storing nothing', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['add_experiment_result', { node_id: 'x', text: 't' }],
      ['add_failure_case', { node_id: 'x', text: 't' }],
      ['add_procedure_memory', { node_id: 'x', text: 't' }],
      ['add_reflection', { node_id: 'x', text: 't' }],
      ['add_reproducibility_event', { node_id: 'x', target_entry_id: 'e', status: 'rerun_passed' }],
      ['consolidate_node_memory', { node_id: 'x', node_report: { node_id: 'x', status: 'success' }, work_dir: t.run.work }],
    ];
    for (const [name, args] of calls) {
      expect(await call(name, args, t.run.env('y'))).toEqual({ error: 'node_id does not match current node (CoW violation)' });
      expect(await call(name, args, t.run.env())).toEqual({ error: 'SVC_CURRENT_NODE_ID not set' });
    }
    expect(await storedCount()).toBe(0);
  });

  test('an artifact that is neither on disk nor hashed, or outside the work directory, is refused and nothing is stored', async () => {
    expect(await call('add_experiment_result', { node_id: 'n', text: 't', artifact_refs: [{ path: 'absent.csv' }] }, t.run.env('n'))).toMatchObject({
      error: expect.stringContaining("artifact 'absent.csv' is not a file in"),
    });
    writeFileSync(join(t.run.base, 'outside.csv'), 'x');
    expect(await call('add_failure_case', { node_id: 'n', text: 't', artifact_refs: [{ path: '../outside.csv' }] }, t.run.env('n'))).toMatchObject({ error: expect.stringContaining('is outside') });
    expect(await call('add_failure_case', { node_id: 'n', text: 't', artifact_refs: [{ path: 'a', sha256: 'xyz' }] }, t.run.env('n'))).toMatchObject({ error: expect.stringContaining("'artifact_refs.0.sha256'") });
    expect(await call('add_failure_case', { node_id: 'n', text: 't', artifact_refs: [{ path: 'a', sha256: 'a'.repeat(64) }], work_dir: 'rel/dir' }, t.run.env('n'))).toEqual({
      error: "work_dir 'rel/dir' is not an absolute path",
    });
    expect(await storedCount()).toBe(0);
  });

  test('the other writers store their own fields', async () => {
    const env = t.run.env('n');
    expect((await ok('add_failure_case', { node_id: 'n', text: 'segfault with AVX-512', reason: 'SIGSEGV in kernel' }, env)).metadata).toEqual({ reason: 'SIGSEGV in kernel', artifact_refs: [] });
    expect((await ok('add_procedure_memory', { node_id: 'n', text: 'build with -O3', commands: ['make', './bench'] }, env)).metadata).toEqual({ commands: ['make', './bench'], artifact_refs: [] });
    expect((await ok('add_reflection', { node_id: 'n', text: 'memory bound?', confidence: 0.3 }, env)).metadata).toEqual({ confidence: 0.3, artifact_refs: [] });
    const ev = await ok('add_reproducibility_event', { node_id: 'n', target_entry_id: 'e1', status: 'rerun_failed' }, env);
    expect(ev).toMatchObject({ kind: 'reproducibility_event', metadata: { target_entry_id: 'e1', status: 'rerun_failed', artifact_refs: [] } });
    expect(await call('add_reflection', { node_id: 'n', text: 't', confidence: 2 }, env)).toMatchObject({ error: expect.stringContaining("'confidence'") });
    expect(await call('add_reproducibility_event', { node_id: 'n', target_entry_id: 'e1', status: 'maybe' }, env)).toMatchObject({ error: expect.stringContaining("'status'") });
    expect(await storedCount()).toBe(4);
  });
});

describe('search_research_memory', () => {
  async function seed() {
    await result('root', 'baseline GEMM 100 GFLOPS', 'root.csv', 'r');
    await ok('add_failure_case', { node_id: 'root', text: 'GEMM with huge pages crashed' }, t.run.env('root'));
    await ok('add_memory', { node_id: 'root', text: 'GEMM GEMM GEMM note' }, t.run.env('root'));
    await ok('add_reflection', { node_id: 'a', text: 'GEMM is memory bound' }, t.run.env('a'));
    await result('b', 'GEMM GEMM GEMM sibling result', 'b.csv', 'b');
  }

  test('kinds narrow the kinds; by default every typed kind but no notes; only the ancestors', async () => {
    await seed();
    const all = await ok('search_research_memory', { query: 'GEMM', ancestor_ids: ['root', 'a'], limit: 10 }, t.run.env('a1'));
    expect(all.results.map((r: any) => r.kind).sort()).toEqual(['experiment_result', 'failure_case', 'reflection']);
    const failures = await ok('search_research_memory', { query: 'GEMM', ancestor_ids: ['root', 'a'], kinds: ['failure_case'] }, t.run.env('a1'));
    expect(failures.results).toEqual([{ entry_id: expect.any(String), node_id: 'root', kind: 'failure_case', text: 'GEMM with huge pages crashed', metadata: { artifact_refs: [] }, score: expect.any(Number) }]);
    const notes = await ok('search_research_memory', { query: 'GEMM', ancestor_ids: ['root', 'a'], kinds: ['node_scope'] }, t.run.env('a1'));
    expect(notes.results.map((r: any) => r.text)).toEqual(['GEMM GEMM GEMM note']);
  });

  test('require_artifacts keeps entries that point at files', async () => {
    await seed();
    const r = await ok('search_research_memory', { query: 'GEMM', ancestor_ids: ['root', 'a', 'b'], require_artifacts: true, limit: 10 }, t.run.env('c'));
    expect(r.results.map((x: any) => x.node_id).sort()).toEqual(['b', 'root']);
  });

  test('empty ancestors: nothing, no request; otherwise the over-fetch size is asked for', async () => {
    await seed();
    const watch = watchRequests();
    try {
      expect(await ok('search_research_memory', { query: 'GEMM', ancestor_ids: [] }, t.run.env('a'))).toEqual({ results: [] });
      expect(watch.requests).toEqual([]);
      await ok('search_research_memory', { query: 'GEMM', ancestor_ids: ['root'], limit: 6 }, t.run.env('a'));
    } finally {
      watch.stop();
    }
    expect(watch.requests.find((r) => r.url.pathname.endsWith('/search'))?.url.searchParams.get('top_k')).toBe('240');
  });
});

describe('get_verified_context', () => {
  test('only results whose every artifact matches its sha256 are verified; a tampered, missing or absent artifact is not', async () => {
    const good = await result('root', 'baseline 100 GFLOPS', 'good.csv', 'good');
    const tampered = await result('a', 'tiling 400 GFLOPS', 'tampered.csv', 'original');
    const deleted = await result('a', 'unrolling 500 GFLOPS', 'deleted.csv', 'gone soon');
    const bare = await ok('add_experiment_result', { node_id: 'a', text: 'claimed 900 GFLOPS' }, t.run.env('a'));
    await result('sibling', 'sibling 999 GFLOPS', 'sib.csv', 's');
    const failure = await ok('add_failure_case', { node_id: 'root', text: 'AVX-512 build crashed' }, t.run.env('root'));
    writeFileSync(join(t.run.work, 'tampered.csv'), 'edited afterwards');
    rmSync(join(t.run.work, 'deleted.csv'));

    const ctx = await ok('get_verified_context', { ancestor_ids: ['root', 'a'] }, t.run.env('a1'));
    expect(ctx.purpose).toBe('paper');
    expect(ctx.verified.map((c: any) => c.entry_id)).toEqual([good.entry_id]);
    expect(ctx.verified[0]).toMatchObject({ node_id: 'root', kind: 'experiment_result', text: 'baseline 100 GFLOPS', repro_status: null, artifacts: [{ path: 'good.csv', status: 'verified', sha256: sha256('good') }] });
    const reasons = Object.fromEntries(ctx.unverified.map((c: any) => [c.entry_id, c.reasons]));
    expect(reasons).toEqual({
      [tampered.entry_id]: ['tampered.csv: sha256 differs from the recorded one'],
      [deleted.entry_id]: ['deleted.csv: missing'],
      [bare.entry_id]: ['no artifacts recorded'],
    });
    expect(ctx.unverified.find((c: any) => c.entry_id === tampered.entry_id).artifacts[0]).toMatchObject({ status: 'mismatch', sha256: sha256('original'), current_sha256: sha256('edited afterwards') });
    expect(ctx.limitations).toEqual([{ entry_id: failure.entry_id, node_id: 'root', text: 'AVX-512 build crashed' }]);
  });

  test('the latest reproducibility event decides: rerun_failed withdraws a result, rerun_passed puts it first; limit caps the list', async () => {
    const first = await result('root', 'first', 'f1.csv', '1');
    const second = await result('root', 'second', 'f2.csv', '2');
    const third = await result('root', 'third', 'f3.csv', '3');
    await ok('add_reproducibility_event', { node_id: 'a', target_entry_id: first.entry_id, status: 'rerun_passed' }, t.run.env('a'));
    await ok('add_reproducibility_event', { node_id: 'a', target_entry_id: first.entry_id, status: 'rerun_failed' }, t.run.env('a'));
    await ok('add_reproducibility_event', { node_id: 'a', target_entry_id: third.entry_id, status: 'rerun_passed' }, t.run.env('a'));
    const ctx = await ok('get_verified_context', { ancestor_ids: ['root', 'a'], purpose: 'figure' }, t.run.env('a1'));
    expect(ctx.verified.map((c: any) => c.entry_id)).toEqual([third.entry_id, second.entry_id]);
    expect(ctx.verified[0].repro_status).toBe('rerun_passed');
    expect(ctx.unverified).toEqual([expect.objectContaining({ entry_id: first.entry_id, repro_status: 'rerun_failed', reasons: ['a rerun failed to reproduce it'] })]);
    const capped = await ok('get_verified_context', { ancestor_ids: ['root', 'a'], limit: 1 }, t.run.env('a1'));
    expect(capped.verified.map((c: any) => c.entry_id)).toEqual([third.entry_id]);
  });

  test("events of nodes outside the ancestors do not count", async () => {
    const r = await result('root', 'baseline', 'f.csv', 'x');
    await ok('add_reproducibility_event', { node_id: 'sibling', target_entry_id: r.entry_id, status: 'rerun_failed' }, t.run.env('sibling'));
    const ctx = await ok('get_verified_context', { ancestor_ids: ['root'] }, t.run.env('a'));
    expect(ctx.verified.map((c: any) => c.entry_id)).toEqual([r.entry_id]);
  });
});

describe('get_experiment_context', () => {
  test('every field is null until the run records them, then read back', async () => {
    const empty = { experiment_goal: null, primary_metric: null, higher_is_better: null, metric_rationale: null, hardware_spec: null, selected_idea: null };
    expect(await ok('get_experiment_context', {}, t.run.env('n'))).toEqual(empty);
    const mem = NodeMemory.forCheckpoint(t.run.checkpoint, t.run.env());
    await writeExperimentContext(mem, { experiment_goal: 'fast GEMM', primary_metric: 'gflops', higher_is_better: true, selected_idea: { title: 'tiling' } });
    expect(await ok('get_experiment_context', {}, t.run.env('n'))).toEqual({ ...empty, experiment_goal: 'fast GEMM', primary_metric: 'gflops', higher_is_better: true, selected_idea: '{"title":"tiling"}' });
  });
});
