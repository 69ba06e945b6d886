import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { version } from '../../package.json';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, SVC, svc, tempDir } from '../support/svc.ts';
import { lacks } from '../support/components.ts';

const EXAMPLE = resolve(import.meta.dir, '../../examples/workspace/checkpoints/20261101093000_cache_blocked_matmul');

let dir: string;
let root: string;
beforeEach(() => {
  dir = tempDir();
  root = join(dir, 'workspace', 'checkpoints');
  mkdirSync(root, { recursive: true });
});
afterEach(() => removeDir(dir));

describe('the binary', () => {
  test('runs from any directory with nothing else on disk', async () => {
    const alone = join(dir, 'bin');
    mkdirSync(alone);
    copyFileSync(SVC, join(alone, 'svc'));
    const proc = Bun.spawn([join(alone, 'svc'), 'skills-list', '--json'], { cwd: '/', env: { PATH: '/usr/bin:/bin', HOME: dir }, stdout: 'pipe' });
    const out = JSON.parse(await new Response(proc.stdout).text());
    expect(await proc.exited).toBe(0);
    expect(out).toHaveLength(13);
  });

  test('a .env beside the executable is read, below the project .env', async () => {
    const alone = join(dir, 'bin');
    mkdirSync(alone);
    copyFileSync(SVC, join(alone, 'svc'));
    writeFileSync(join(alone, '.env'), 'SVC_MODEL=beside-binary\nSVC_RUBRIC=iclr\n');
    const run = async () => {
      const p = Bun.spawn([join(alone, 'svc'), 'settings', '--json'], { cwd: dir, env: { PATH: '/usr/bin:/bin', HOME: join(dir, 'home') }, stdout: 'pipe' });
      return Object.fromEntries(JSON.parse(await new Response(p.stdout).text()).settings.map((r: { key: string; value: unknown; source: string }) => [r.key, r]));
    };
    expect((await run()).model).toEqual({ key: 'model', value: 'beside-binary', source: `${join(alone, '.env')}: SVC_MODEL` });
    writeFileSync(join(dir, '.env'), 'SVC_MODEL=project\n');
    const both = await run();
    expect(both.model.value).toBe('project');
    expect(both.rubric.value).toBe('iclr');
  });

  test('--version and --help', async () => {
    const help = await svc(['--help'], { cwd: dir });
    expect(help.code).toBe(0);
    for (const c of ['run', 'resume', 'paper', 'migrate', 'ear', 'clone', 'registry', 'status', 'projects', 'show', 'delete', 'settings', 'skills-list', 'viz', 'bench', 'completion']) expect(help.stdout).toContain(`  ${c} `);
  });

  test('--version names the version, the commit and the build date, as git has them', async () => {
    const git = (...args: string[]) => Bun.spawnSync(['git', '-C', resolve(import.meta.dir, '../..'), ...args], { stdout: 'pipe' }).stdout.toString().trim();
    const [sha = '', committed = ''] = git('log', '-1', '--format=%H %cI').split(' ');
    const epoch = process.env.SOURCE_DATE_EPOCH;
    const day = (epoch ? new Date(Number(epoch) * 1000) : new Date(committed)).toISOString().slice(0, 10);
    // whether the tree had changes is what it was when dist/svc was built, which files written since (by other tests) do not tell
    const expected = new RegExp(`^svc ${version.replaceAll('.', '\\.')} \\(commit ${sha.slice(0, 12)}(-dirty)?, built ${day}\\)\n$`);
    for (const flag of ['--version', '-v']) {
      const r = await svc([flag], { cwd: dir });
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
      expect(r.stdout).toMatch(expected);
    }
  });

  test('completion bash: a script bash accepts, completing a command in a real bash', async () => {
    const r = await svc(['completion', 'bash'], { cwd: dir });
    expect(r.code).toBe(0);
    writeFileSync(join(dir, 'svc.bash'), r.stdout);
    expect(Bun.spawnSync(['bash', '-n', join(dir, 'svc.bash')]).exitCode).toBe(0);
    const complete = Bun.spawnSync(['bash', '--norc', '-c', 'source "$0"; COMP_WORDS=(svc ear p); COMP_CWORD=2; _svc; echo "${COMPREPLY[*]}"', join(dir, 'svc.bash')], { stdout: 'pipe' });
    expect(complete.stdout.toString()).toBe('publish promote\n');
  });

  test.each([
    ['status', ['--json']],
    ['projects', ['--checkpoints', '--json']],
    ['show', ['--checkpoints-dir', '--json']],
    ['delete', ['-y, --yes', '--checkpoints-dir']],
    ['settings', ['--config', '--model', '--api-key', '--partition', '--cpus', '--mem', '--json']],
    ['skills-list', ['--config', '--json']],
  ])('svc %s --help lists its flags', async (cmd, flags) => {
    const r = await svc([cmd, '--help'], { cwd: dir });
    expect(r.code).toBe(0);
    for (const f of flags) expect(r.stdout).toContain(f);
  });

  test('svc help <command> is svc <command> --help', async () => {
    expect(await svc(['help', 'status'], { cwd: dir })).toEqual(await svc(['status', '--help'], { cwd: dir }));
  });

  test('a full disk is one line, not a stack trace', async () => {
    const p = Bun.spawn([SVC, 'status', EXAMPLE], { cwd: dir, env: { PATH: '/usr/bin:/bin', HOME: dir }, stdout: Bun.file('/dev/full'), stderr: 'pipe' });
    const [code, stderr] = await Promise.all([p.exited, new Response(p.stderr).text()]);
    expect(code).toBe(1);
    expect(stderr).toBe('svc: cannot write output: ENOSPC\n');
  });

  test('bad usage: one line, exit 2', async () => {
    for (const [args, msg] of [
      [['frobnicate'], "svc: unknown command 'frobnicate' (see svc --help)\n"],
      [['status'], 'svc: missing argument CHECKPOINT_DIR for svc status (see svc status --help)\n'],
      [['status', 'a', 'b'], 'svc: too many arguments for svc status (see svc status --help)\n'],
      [['projects', '--checkpoint', 'x'], "svc: unknown option '--checkpoint' for svc projects (see svc projects --help)\n"],
      [['projects', '--checkpoints'], "svc: option '--checkpoints' of svc projects needs a value\n"],
      [['projects', '--checkpoints', ''], "svc: option '--checkpoints' of svc projects needs a value\n"],
      [['settings', '--model', '--json'], "svc: option '--model' of svc settings needs a value\n"],
      [['delete', 'x', '--yes=no'], "svc: option '--yes' of svc delete takes no value (or true/false), got 'no'\n"],
    ] as const) {
      expect(await svc([...args], { cwd: dir })).toEqual({ code: 2, stdout: '', stderr: msg });
    }
  });
});

describe('svc status', () => {
  test('draws the tree, counts, best node and metric of the example', async () => {
    const r = await svc(['status', EXAMPLE], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('20261101093000_cache_blocked_matmul  done\n');
    expect(r.stdout).toContain('nodes: 7 total, 6 success, 1 failed, 0 running, 0 pending\n');
    expect(r.stdout).toContain('best: node_c0ffee12 (score 0.740, gflops = 9.8)\n');
    expect(r.stdout).toContain('│  ├─ node_c0ffee12 [success] improve score 0.740 ★ best — 64x64 blocking over i-k-j\n');
    expect(r.stdout).toContain('└─ node_8b2d4e61 [failed] improve — AVX2 intrinsics kernel\n   └─ node_9e7d2a44');
  });

  test('--json carries the summary and every node', async () => {
    const ck = writeCheckpoint(root, { nodes: 30 });
    const r = await svc(['status', ck, '--json'], { cwd: dir });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ id: '20261101120000_generated_run', status: 'done', nodes: { total: 30 }, best: { id: 'node_0000001d' } });
    expect(out.nodes_list).toHaveLength(30);
  });

  test('a directory named otherwise than its run: the run id the tree records is shown beside the name', async () => {
    const ck = writeCheckpoint(root, { runId: '20261101130000_recorded' });
    const moved = join(root, 'abc');
    renameSync(ck, moved);
    const r = await svc(['status', moved], { cwd: dir });
    expect(r.stdout).toStartWith('abc (run 20261101130000_recorded)  done\n');
    expect(JSON.parse((await svc(['status', moved, '--json'], { cwd: dir })).stdout)).toMatchObject({ id: 'abc', run_id: '20261101130000_recorded' });
  });

  test("the review score and the claim gate's verdict, one line each; a damaged gate report is named, not a crash", async () => {
    const ck = writeCheckpoint(root);
    writeFileSync(join(ck, 'review_report.json'), JSON.stringify({ overall_score: 6 }));
    mkdirSync(join(ck, 'evaluation'));
    const gate = { gate: 'claim_evidence_hard_gate', phase: 'final', policy: { mode: 'warn' }, status: 'pass', should_block: false, errors: [], warnings: [{ type: 'no_claims', message: 'nothing to check' }], metrics: { total_claims: 0, grounded_claims: 0 } };
    const file = join(ck, 'evaluation', 'claim_evidence_hard_gate_final.json');
    writeFileSync(file, JSON.stringify(gate));
    const r = await svc(['status', ck], { cwd: dir });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('review score: 6\nclaim gate (final, warn mode): pass, 0 errors, 1 warning\n');
    writeFileSync(file, JSON.stringify({ ...gate, policy: { mode: 'strict' }, status: 'fail', should_block: true, errors: [{ type: 'numeric_mismatch' }, { type: 'missing_evidence' }], warnings: [] }));
    expect((await svc(['status', ck], { cwd: dir })).stdout).toContain('claim gate (final, strict mode): fail, 2 errors, 0 warnings, blocks the final paper\n');
    expect(JSON.parse((await svc(['status', ck, '--json'], { cwd: dir })).stdout).claim_gate).toEqual({ phase: 'final', status: 'fail', mode: 'strict', should_block: true, errors: 2, warnings: 0 });
    writeFileSync(file, '{"gate": "claim_');
    const damaged = await svc(['status', ck], { cwd: dir });
    expect(damaged.code).toBe(1);
    expect(damaged.stdout).not.toContain('claim gate');
    expect(damaged.stderr).toContain(`${file}: is not valid JSON`);
  });

  test("the graded reproduction's score in one line; a degraded one says why", async () => {
    const ck = writeCheckpoint(root);
    const file = join(ck, 'reproducibility_report.json');
    const report = { ors_score: 0.875, n_runs: 3, spread: 0.04, degraded: false, negative_control: { passed: true } };
    writeFileSync(file, JSON.stringify(report));
    expect((await svc(['status', ck], { cwd: dir })).stdout).toContain('reproduction: ORS 0.875 over 3 runs (spread 0.040), negative controls passed\n');
    writeFileSync(file, JSON.stringify({ ...report, degraded: true, degraded_reason: 'the negative controls scored 0.9', negative_control: { passed: false } }));
    expect((await svc(['status', ck], { cwd: dir })).stdout).toContain('reproduction: ORS 0.875 over 3 runs (spread 0.040), negative controls failed; degraded: the negative controls scored 0.9\n');
    writeFileSync(file, JSON.stringify({ ...report, run_timed_out: true }));
    expect((await svc(['status', ck], { cwd: dir })).stdout).toContain('reproduction: ORS 0.875 over 3 runs (spread 0.040), negative controls passed; the run was stopped at its time limit\n');
  });

  test('a checkpoint id resolves inside ./workspace/checkpoints', async () => {
    writeCheckpoint(root, { runId: 'by_id' });
    expect((await svc(['status', 'by_id'], { cwd: dir })).code).toBe(0);
  });

  test('a truncated tree.json: says which file, shows the nodes it still has, exit 1, file untouched', async () => {
    const ck = writeCheckpoint(root, { nodes: 12 });
    const text = readFileSync(join(ck, 'tree.json'), 'utf8');
    const cut = text.slice(0, Math.floor(text.length / 2));
    writeFileSync(join(ck, 'tree.json'), cut);
    const r = await svc(['status', ck], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^svc: ${join(ck, 'tree.json').replace(/[.]/g, '\\.')}: is not valid JSON .*; showing the \\d+ complete node record\\(s\\) before the damage\\n$`));
    expect(r.stdout).toContain('root [success] draft');
    expect(r.stdout).toMatch(/nodes: \d+ total/);
    expect(readFileSync(join(ck, 'tree.json'), 'utf8')).toBe(cut);
  });

  test('tree.json that is not JSON at all: named, the rest still shown', async () => {
    const ck = writeCheckpoint(root);
    writeFileSync(join(ck, 'tree.json'), '<html>oops</html>');
    const r = await svc(['status', ck], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(ck, 'tree.json')}: is not valid JSON`);
    expect(r.stdout).toContain('goal: Maximise throughput of the generated kernel.');
    expect(r.stdout).toContain('cost: $1.25 over 12 calls');
  });

  test('fields of the wrong type from another tool: shown as far as they go, never a crash', async () => {
    const ck = join(root, 'odd');
    mkdirSync(ck);
    writeFileSync(join(ck, 'tree.json'), JSON.stringify({ experiment_goal: 5, nodes: [{ id: 'a', name: 123, label: 7, status: null, metrics: null }, { id: 'b', parent_id: 'a', metrics: { _scientific_score: '0.9' } }] }));
    writeFileSync(join(ck, 'cost_trace.jsonl'), 'null\n{"estimated_cost_usd": 0.5, "total_tokens": 10}\n7\n');
    const r = await svc(['status', 'odd'], { cwd: dir });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('a [?]\n└─ b [?]\n');
    expect(r.stdout).toContain('cost: $0.5000 over 1 calls, 10 tokens');
    writeCheckpoint(root, { runId: 'fine' });
    const p = await svc(['projects'], { cwd: dir });
    expect(p.code).toBe(0);
    expect(p.stdout).toContain('odd');
    expect(p.stdout).toContain('fine');
  });

  test('nodes in a parent cycle are still drawn', async () => {
    const ck = join(root, 'loop');
    mkdirSync(ck);
    writeFileSync(join(ck, 'tree.json'), JSON.stringify({ nodes: [{ id: 'a', parent_id: 'b' }, { id: 'b', parent_id: 'a' }, { id: 'c' }] }));
    const r = await svc(['status', 'loop'], { cwd: dir });
    expect(r.stdout).toContain('nodes: 3 total');
    expect(r.stdout).toEndWith('\nc [?]\n(nodes in a parent cycle)\n└─ a [?]\n   └─ b [?]\n');
  });

  test('a FIFO named tree.json is reported, not read', async () => {
    const ck = join(root, 'fifo');
    mkdirSync(ck);
    Bun.spawnSync(['mkfifo', join(ck, 'tree.json')]);
    writeFileSync(join(ck, 'idea.json'), '{"ideas": []}');
    const r = await svc(['status', 'fifo'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`svc: ${join(ck, 'tree.json')}: is not a regular file\n`);
  });

  test('SVC_CHECKPOINT_DIR from the project .env decides where checkpoints are', async () => {
    const other = join(dir, 'elsewhere', 'checkpoints');
    writeCheckpoint(other, { runId: 'over_there' });
    writeFileSync(join(dir, '.env'), `SVC_CHECKPOINT_DIR=${join(other, 'over_there')}\n`);
    expect((await svc(['projects'], { cwd: dir })).stdout).toContain('over_there');
    expect((await svc(['status', 'over_there'], { cwd: dir })).code).toBe(0);
  });

  test('a path that does not exist, or is not a checkpoint', async () => {
    const missing = await svc(['status', join(dir, 'nope')], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toStartWith(`svc: checkpoint '${join(dir, 'nope')}' does not exist`);
    mkdirSync(join(dir, 'empty'));
    const notCk = await svc(['status', join(dir, 'empty')], { cwd: dir });
    expect(notCk).toMatchObject({ code: 2, stdout: '' });
    expect(notCk.stderr).toBe(`svc: ${join(dir, 'empty')} is not a checkpoint (a checkpoint holds tree.json, idea.json or launch_config.json)\n`);
  });
});

describe('svc projects and show', () => {
  test('a table of checkpoints, and the same as JSON', async () => {
    writeCheckpoint(root, { runId: '20260101000000_first', nodes: 5 });
    writeCheckpoint(root, { runId: '20260301000000_second', nodes: 40, pid: process.pid });
    const r = await svc(['projects'], { cwd: dir });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+NODES\s+BEST\s+COST\s+MODIFIED$/);
    expect(lines[1]).toMatch(/^20260301000000_second\s+running\s+40\s+0\.900\s+\$1\.25\s+\d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(lines[2]).toMatch(/^20260101000000_first\s+done\s+5\s+0\.900/);
    const json = JSON.parse((await svc(['projects', '--json'], { cwd: dir })).stdout);
    expect(json.map((p: { id: string }) => p.id)).toEqual(['20260301000000_second', '20260101000000_first']);
  });

  test('--checkpoints points elsewhere; a missing directory is an error', async () => {
    const r = await svc(['projects', '--checkpoints', resolve(EXAMPLE, '..')], { cwd: dir });
    expect(r.stdout).toContain('20261101093000_cache_blocked_matmul');
    const bad = await svc(['projects', '--checkpoints', join(dir, 'missing')], { cwd: dir });
    expect(bad).toMatchObject({ code: 2, stderr: `svc: checkpoints directory ${join(dir, 'missing')} does not exist\n` });
    expect((await svc(['projects'], { cwd: join(dir, 'workspace') })).stdout).toStartWith('no checkpoints in ');
  });

  test('show lists ideas and files', async () => {
    const r = await svc(['show', '20261101093000_cache_blocked_matmul', '--checkpoints-dir', resolve(EXAMPLE, '..')], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  * Loop order and block size, measured together (0.590)');
    expect(r.stdout).toMatch(/ {2}tree\.json\s+\d+/);
    // the node tree, drawn as svc status draws it
    expect(r.stdout).toContain('│  ├─ node_c0ffee12 [success] improve score 0.740 ★ best — 64x64 blocking over i-k-j\n');
    const json = JSON.parse((await svc(['show', EXAMPLE, '--json'], { cwd: dir })).stdout);
    expect(json.files.map((f: { path: string }) => f.path)).toContain('idea.json');
  });
});

describe('svc skills-list', () => {
  test('a workflow with no skills says so and exits 0', async () => {
    writeFileSync(join(dir, 'no-skills.yaml'), 'skills: []\n');
    const r = await svc(['skills-list', '--config', join(dir, 'no-skills.yaml')], { cwd: dir });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe(`workflow: ${join(dir, 'no-skills.yaml')}\n\nNo skills\n`);
    expect(JSON.parse((await svc(['skills-list', '--config', join(dir, 'no-skills.yaml'), '--json'], { cwd: dir })).stdout)).toEqual([]);
  });
});

describe('svc delete', () => {
  test('-y removes the checkpoint and its experiments directory', async () => {
    const ck = writeCheckpoint(root, { runId: 'gone' });
    mkdirSync(join(dir, 'workspace', 'experiments', 'gone', 'node_1'), { recursive: true });
    const r = await svc(['delete', 'gone', '-y'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`deleted ${ck} and ${join(dir, 'workspace', 'experiments', 'gone')}\n`);
    expect(existsSync(ck)).toBe(false);
    expect(existsSync(join(dir, 'workspace', 'experiments', 'gone'))).toBe(false);
  });

  test('without -y and without a terminal it refuses and deletes nothing', async () => {
    const ck = writeCheckpoint(root, { runId: 'kept' });
    const r = await svc(['delete', 'kept'], { cwd: dir, stdin: 'y\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`svc: not deleting ${ck} without confirmation (pass -y when not on a terminal)\n`);
    expect(existsSync(join(ck, 'tree.json'))).toBe(true);
  });

  test.skipIf(lacks('script'))('on a terminal it asks; only yes deletes', async () => {
    const ck = writeCheckpoint(root, { runId: 'asked' });
    const onTty = async (answer: string) => {
      const p = Bun.spawn(['script', '-qec', `${SVC} delete asked`, '/dev/null'], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir, TERM: 'dumb' }, stdin: new Blob([answer]), stdout: 'pipe' });
      const out = await new Response(p.stdout).text();
      return { code: await p.exited, out };
    };
    const no = await onTty('n\n');
    expect(no.out).toContain('Delete ');
    expect(no.out).toContain('nothing deleted');
    expect(existsSync(ck)).toBe(true);
    const yes = await onTty('y\n');
    expect(yes.out).toContain(`deleted ${ck}`);
    expect(existsSync(ck)).toBe(false);
  });

  test('../elsewhere is refused and nothing changes', async () => {
    const elsewhere = writeCheckpoint(join(dir, 'workspace'), { runId: 'elsewhere' });
    // home elsewhere: the project is found by walking up from the checkpoints directory, below home
    const r = await svc(['delete', '../elsewhere', '-y'], { cwd: root, env: { HOME: '/nonexistent-home' } });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `svc: '../elsewhere' is outside the checkpoints directory ${root} (svc delete only removes checkpoints inside it)\n` });
    expect(existsSync(join(elsewhere, 'tree.json'))).toBe(true);
  });

  test('--yes=no does not delete', async () => {
    const ck = writeCheckpoint(root, { runId: 'kept_too' });
    expect((await svc(['delete', 'kept_too', '--yes=no'], { cwd: dir })).code).toBe(2);
    expect(existsSync(join(ck, 'tree.json'))).toBe(true);
  });

  test('a running checkpoint is refused', async () => {
    writeCheckpoint(root, { runId: 'live', pid: process.pid });
    const r = await svc(['delete', 'live', '-y'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`svc: checkpoint live is running (pid ${process.pid}) (stop the run first)\n`);
  });
});

describe('svc settings and skills-list', () => {
  test('shows each setting with its source', async () => {
    const r = await svc(['settings', '--json'], { cwd: dir, env: { SVC_MODEL: 'from-env', SVC_MAX_NODES: '' } });
    const rows = Object.fromEntries(JSON.parse(r.stdout).settings.map((s: { key: string }) => [s.key, s]));
    expect(rows.model).toEqual({ key: 'model', value: 'from-env', source: 'env SVC_MODEL' });
    expect(rows.max_nodes).toEqual({ key: 'max_nodes', value: 50, source: '(bundled workflow.yaml): bfts.max_nodes' });
    const laptop = JSON.parse((await svc(['settings', '--json', '--profile', 'laptop'], { cwd: dir })).stdout);
    expect(laptop.settings.find((s: { key: string }) => s.key === 'max_nodes')).toMatchObject({ value: 8, source: 'profile laptop' });
  });

  test('saves plain settings to settings.json and the API key only to .env', async () => {
    const save = await svc(['settings', '--model', 'm2', '--cpus', '8'], { cwd: dir });
    expect(save.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'workspace', 'settings.json'), 'utf8'))).toEqual({ llm_model: 'm2', slurm_cpus: 8 });
    const key = await svc(['settings', '--api-key', 'sk-test-123'], { cwd: dir, env: { SVC_BACKEND: 'providerb' } });
    expect(key.stdout).toBe(`saved PROVIDERB_API_KEY (value hidden) to ${join(dir, '.env')}\n`);
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe('PROVIDERB_API_KEY=sk-test-123\n');
    expect(readFileSync(join(dir, 'workspace', 'settings.json'), 'utf8')).not.toContain('sk-test-123');
    const env = await svc(['settings', '--env'], { cwd: dir });
    expect(env.stdout).toMatch(/PROVIDERB_API_KEY\s+\(set\)/);
    expect(env.stdout).not.toContain('sk-test-123');
    const after = JSON.parse((await svc(['settings', '--json'], { cwd: dir })).stdout);
    expect(after.settings.find((s: { key: string }) => s.key === 'model').value).toBe('m2');
  });

  test('a .env line without = stops the command, names the line, writes nothing', async () => {
    writeFileSync(join(dir, '.env'), 'SVC_MODEL=x\nthis is not a pair\n');
    const r = await svc(['settings', '--model', 'y'], { cwd: dir });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `svc: ${join(dir, '.env')}:2: the line is not KEY=VALUE (fix or comment out that line)\n` });
    expect(existsSync(join(dir, 'workspace', 'settings.json'))).toBe(false);
  });

  test('a workflow with an unknown stage in depends_on names the key and the file', async () => {
    const wf = join(dir, 'bad.yaml');
    writeFileSync(wf, 'pipeline:\n  - stage: write_paper\n    depends_on: [search_related_wrok]\n');
    const r = await svc(['skills-list', '--config', wf], { cwd: dir });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `svc: ${wf}: pipeline[0].depends_on: unknown stage 'search_related_wrok' (stages: write_paper) (fix the workflow file)\n` });
  });

  test('a malformed workflow: the file and line, never a stack trace', async () => {
    const wf = join(dir, 'broken.yaml');
    writeFileSync(wf, 'llm:\n  model: "unterminated\nauthor_name: x\n');
    const r = await svc(['settings', '--config', wf], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^svc: ${wf.replace(/[.]/g, '\\.')}:\\d+:\\d+: .+ \\(fix the YAML syntax\\)\\n$`));
  });

  test('skills-list shows the thirteen skills with their tool counts and phases', async () => {
    const r = await svc(['skills-list'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/coding-skill\s+5\s+bfts,reproduce\s+built in\n/);
    expect(r.stdout).toMatch(/benchmark-skill\s+3\s+bfts\s+built in\n/);
    expect(r.stdout).toMatch(/evaluator-skill\s+3\s+bfts\s+built in\n/);
    expect(r.stdout).toMatch(/web-skill\s+9\s+paper,reproduce\s+built in\n/);
    expect(r.stdout).toMatch(/paper-skill\s+15\s+paper\s+built in\n/);
    expect(r.stdout).toMatch(/replicate-skill\s+3\s+paper\s+built in\n/);
    const all = JSON.parse((await svc(['skills-list', '--json'], { cwd: dir })).stdout);
    const coding = all.find((s: { name: string }) => s.name === 'coding-skill');
    expect(coding.tools.map((t: { name: string }) => t.name)).toEqual(['write_code', 'run_code', 'run_bash', 'read_file', 'emit_results']);
    expect(coding.tools[2].input_schema.required).toEqual(['command']);
    const custom = join(dir, 'wf.yaml');
    writeFileSync(custom, `skills:\n  - {name: my-skill, path: "{{ari_root}}/skills/mine", phase: [bfts]}\nbfts_pipeline: []\npipeline: []\n`);
    const mine = JSON.parse((await svc(['skills-list', '--config', custom, '--json'], { cwd: dir, env: { SVC_ROOT: dir } })).stdout);
    expect(mine).toEqual([
      {
        name: 'my-skill',
        phases: ['bfts'],
        path: join(dir, 'skills', 'mine'),
        builtin: false,
        found: false,
        enabled: true,
        description: '',
        uses_model: null,
        env: [],
        tool_count: null,
        tools: [],
        problem: `skill my-skill: nothing to run at ${join(dir, 'skills', 'mine')} (give a directory with src/server.py or an executable MCP server)`,
      },
    ]);
  });

});
