import { afterEach, beforeEach, describe, expect, spyOn, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrateNodeReports } from '../../../src/agent/migrate-reports.ts';
import { dispatch } from '../../../src/cli/dispatch.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const RUN = '20260101000000_old';
let dir: string;
let ckpt: string;
let exp: string;

const nodeRec = (id: string, over: Record<string, unknown> = {}) => ({ id, parent_id: null, depth: 0, status: 'success', label: 'draft', raw_label: 'draft', metrics: {}, eval_summary: null, ancestor_ids: [], completed_at: '2026-01-01T01:00:00Z', ...over });
const report = (id: string) => JSON.parse(readFileSync(join(exp, id, 'node_report.json'), 'utf8'));

beforeEach(() => {
  dir = tempDir('svc-migrate-');
  ckpt = join(dir, 'workspace', 'checkpoints', RUN);
  exp = join(dir, 'workspace', 'experiments', RUN);
  mkdirSync(ckpt, { recursive: true });
  const nodes = [
    nodeRec('node_old_root', { metrics: { _scientific_score: 0.3 }, eval_summary: 'first loop\nmore' }),
    nodeRec('node_aaaaaaaa', { parent_id: 'node_old_root', depth: 1, label: 'improve', ancestor_ids: ['node_old_root'], metrics: { _scientific_score: 0.6, time_s: 0.1 } }),
    nodeRec('node_bbbbbbbb', { parent_id: 'node_old_root', depth: 1, status: 'failed' }),
    nodeRec('node_cccccccc', { parent_id: 'node_old_root', depth: 1, status: 'pending' }),
  ];
  writeFileSync(join(ckpt, 'tree.json'), JSON.stringify({ run_id: RUN, nodes }));
  for (const id of ['node_old_root', 'node_aaaaaaaa']) mkdirSync(join(exp, id), { recursive: true });
  writeFileSync(join(exp, 'node_old_root', 'a.py'), 'print(1)\n');
  writeFileSync(join(exp, 'node_aaaaaaaa', 'a.py'), 'print(2)\n');
  writeFileSync(join(exp, 'node_aaaaaaaa', 'out.csv'), 'x\n1\n');
});
afterEach(() => removeDir(dir));

describe('migrateNodeReports', () => {
  test('rebuilds reports from the tree and the work directories, null for what is lost', () => {
    const r = migrateNodeReports(ckpt);
    expect(r.written).toEqual(['node_old_root', 'node_aaaaaaaa']);
    expect(r.skipped).toEqual(['node_cccccccc']);
    expect(r.failed).toEqual([{ node_id: 'node_bbbbbbbb', error: `no work directory ${join(exp, 'node_bbbbbbbb')}` }]);
    const child = report('node_aaaaaaaa');
    expect(child).toMatchObject({
      schema_version: 1,
      node_id: 'node_aaaaaaaa',
      parent_id: 'node_old_root',
      label: 'improve',
      status: 'success',
      migration_source: 'auto',
      started_at: null,
      completed_at: '2026-01-01T01:00:00Z',
      hostname: null,
      cpu_info: null,
      mem_total_kb: null,
      executor: null,
      evaluator_reason: null,
      trace_log_summary: null,
      what_was_done: null,
      metrics: { _scientific_score: 0.6, time_s: 0.1 },
      delta_vs_parent: '1 file(s) added, 1 modified, 0 deleted vs the parent; score 0.300 → 0.600',
      artifacts: [{ filename: 'out.csv', role: 'data_output', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), size: 4 }],
    });
    expect(child.files_changed.modified.map((f: { path: string }) => f.path)).toEqual(['a.py']);
    expect(report('node_old_root')).toMatchObject({ what_was_done: 'first loop\nmore', self_assessment: { headline: 'first loop' }, files_changed: { added: [{ path: 'a.py', sha256: expect.any(String) }] } });
  });

  test("recovers the start time and machine from _run_env.json and the tool calls from trace_log", () => {
    const trace = [
      '→ write_code({"filename":"a.py","code":"print(2)"})',
      '  ← {"bytes":9}',
      '→ run_bash({"command":"python3 broken.py"})',
      '  ← error: run_bash: exit 1',
      '→ run_code({"filename":"a.py"})',
      '  ← {"exit_code":0,"stdout":"2"}',
      '→ run_bash({"command":"python3 a.py --n 10"})',
      '  ← {"exit_code":0,"stdout":"2"}',
      '→ run_code({"filename":"cut short',
      '  ← {"exit_code":0}',
    ];
    const nodes = [nodeRec('node_old_root', { trace_log: trace })];
    writeFileSync(join(ckpt, 'tree.json'), JSON.stringify({ run_id: RUN, nodes }));
    const machine = { hostname: 'vm-7', cpu_info: { model: 'EPYC', threads: 2, mhz: null, arch: 'x64', vendor: null }, mem_total_kb: 1024, compilers: { gcc: 'gcc 12' } };
    writeFileSync(join(exp, 'node_old_root', '_run_env.json'), JSON.stringify({ node_id: 'node_old_root', started_at: '2026-01-01T00:59:00Z', executor: 'local', ...machine }));
    migrateNodeReports(ckpt);
    expect(report('node_old_root')).toMatchObject({
      migration_source: 'auto',
      started_at: '2026-01-01T00:59:00Z',
      executor: 'local',
      ...machine,
      trace_log_summary: '5 tool call(s): write_code×1, run_bash×2, run_code×2',
      run_command: 'python3 a.py --n 10',
      evaluator_reason: null,
    });
    // a damaged _run_env.json recovers nothing from it
    writeFileSync(join(exp, 'node_old_root', '_run_env.json'), '{"started_at":');
    migrateNodeReports(ckpt, { overwrite: true });
    expect(report('node_old_root')).toMatchObject({ started_at: null, executor: null, hostname: null, cpu_info: null, trace_log_summary: '5 tool call(s): write_code×1, run_bash×2, run_code×2' });
  });

  test('keeps reports that exist unless told to overwrite', () => {
    writeFileSync(join(exp, 'node_old_root', 'node_report.json'), '{"node_id":"node_old_root","status":"success","migration_source":"fresh"}');
    const kept = migrateNodeReports(ckpt);
    expect(kept.skipped).toEqual(['node_old_root', 'node_cccccccc']);
    expect(report('node_old_root').migration_source).toBe('fresh');
    const over = migrateNodeReports(ckpt, { overwrite: true });
    expect(over.written).toEqual(['node_old_root', 'node_aaaaaaaa']);
    expect(report('node_old_root').migration_source).toBe('auto');
  });

  test('a parent whose directory is gone leaves files_changed null', () => {
    removeDir(join(exp, 'node_old_root'));
    migrateNodeReports(ckpt);
    expect(report('node_aaaaaaaa').files_changed).toBeNull();
    expect(report('node_aaaaaaaa').artifacts).toEqual([]);
  });

  test('bad inputs: no directory, no tree, a node id that is a path', () => {
    expect(() => migrateNodeReports(join(dir, 'nope'))).toThrow(`no checkpoint directory ${join(dir, 'nope')}`);
    writeFileSync(join(ckpt, 'tree.json'), 'not json');
    expect(() => migrateNodeReports(ckpt)).toThrow('has no readable node tree');
    writeFileSync(join(ckpt, 'tree.json'), JSON.stringify({ nodes: [nodeRec('../escape')] }));
    expect(migrateNodeReports(ckpt).failed).toEqual([{ node_id: '../escape', error: `node id in ${join(ckpt, 'tree.json')} is not a directory name` }]);
  });
});

describe('svc migrate node-reports', () => {
  const table = { migrate: { description: 'migrate', load: () => import('../../../src/cli/migrate.ts').then((m) => m.default) } };
  const svc = async (...argv: string[]) => {
    const out: string[] = [];
    const o = spyOn(process.stdout, 'write').mockImplementation((s) => out.push(String(s)) > 0);
    const e = spyOn(process.stderr, 'write').mockImplementation((s) => out.push(String(s)) > 0);
    try {
      const code = await dispatch(table, argv, () => '', '0');
      return { code, out: out.join('') };
    } finally {
      o.mockRestore();
      e.mockRestore();
    }
  };

  test('writes, then keeps, then overwrites; a failed node makes the exit code 1', async () => {
    const first = await svc('migrate', 'node-reports', ckpt);
    expect(first).toEqual({ code: 1, out: expect.stringContaining('2 report(s) written, 1 skipped (reports kept; --overwrite replaces them, or nodes never run), 1 failed') });
    expect(first.out).toContain('node_bbbbbbbb: no work directory');
    const again = await svc('migrate', 'node-reports', ckpt, '--json');
    expect(JSON.parse(again.out.slice(0, again.out.indexOf('\n}') + 2))).toMatchObject({ written: [], skipped: ['node_old_root', 'node_aaaaaaaa', 'node_cccccccc'] });
    const over = await svc('migrate', 'node-reports', ckpt, '--overwrite');
    expect(over.out).toContain('2 report(s) written, 1 skipped (reports kept, or nodes never run), 1 failed');
  });

  test('a missing checkpoint argument or directory is a one-line error', async () => {
    expect((await svc('migrate', 'node-reports')).code).not.toBe(0);
    const missing = await svc('migrate', 'node-reports', join(dir, 'nope'));
    expect(missing.code).not.toBe(0);
    expect(missing.out).toContain('does not exist');
  });
});
