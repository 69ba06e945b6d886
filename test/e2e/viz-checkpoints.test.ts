import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { lacks } from '../support/components.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

let dir: string;
let ws: string;
let root: string;
let viz: Viz | null;
const sleepers: Bun.Subprocess[] = [];
beforeEach(() => {
  dir = tempDir();
  ws = join(dir, 'workspace');
  root = join(ws, 'checkpoints');
  mkdirSync(root, { recursive: true });
  viz = null;
});
afterEach(async () => {
  await viz?.stop();
  for (const p of sleepers.splice(0)) {
    p.kill();
    await p.exited;
  }
  removeDir(dir);
});

/** No memory backend answers here: the memory routes fall back to the checkpoint's files. */
const NO_MEMORY = { MEMBACKEND_BASE_URL: 'http://127.0.0.1:9', SVC_MEMORY_LETTA_TIMEOUT_S: '2' };

async function start(): Promise<Viz> {
  viz = await startViz([ws], { cwd: dir, env: NO_MEMORY });
  return viz;
}

/** The claim gate's report of a phase, as the gate writes it; `fields` replace the defaults. */
function writeGate(ck: string, phase: 'draft' | 'final', fields: Record<string, unknown> = {}): void {
  mkdirSync(join(ck, 'evaluation'), { recursive: true });
  const report = { gate: 'claim_evidence_hard_gate', phase, policy: { mode: 'warn' }, status: 'warn', should_block: false, errors: [], warnings: [], metrics: { total_claims: 1, grounded_claims: 1 }, ...fields };
  writeFileSync(join(ck, 'evaluation', `claim_evidence_hard_gate_${phase}.json`), JSON.stringify(report));
}

const A = '20261101090000_alpha';
const B = '20261102090000_beta';

describe('GET /api/checkpoints', () => {
  test('no checkpoints: an empty list', async () => {
    const v = await start();
    expect(await v.get('/api/checkpoints')).toEqual({ status: 200, body: [] });
  });

  test('every checkpoint, newest first, with the list fields', async () => {
    writeCheckpoint(root, { runId: A, nodes: 5 });
    const b = writeCheckpoint(root, { runId: B, nodes: 3 });
    writeFileSync(join(b, 'review_report.json'), JSON.stringify({ overall_score: 7.5, scores: {} }));
    const v = await start();
    const { status, body } = await v.get('/api/checkpoints');
    expect(status).toBe(200);
    expect(body.map((e: { id: string }) => e.id)).toEqual([B, A]);
    expect(body[0]).toMatchObject({ id: B, path: b, status: 'done', node_count: 3, review_score: 7.5, best_metric: null, best_scientific_score: 0.9, cost: { usd: 1.25, tokens: 5000 } });
    expect(Number.isNaN(Date.parse(body[0].mtime))).toBe(false);
    expect(body[1]).toMatchObject({ id: A, node_count: 5, review_score: null });
  });

  test("the review score and the claim gate's verdict: the final report, else the draft's, else null", async () => {
    const a = writeCheckpoint(root, { runId: A });
    const b = writeCheckpoint(root, { runId: B });
    const c = writeCheckpoint(root, { runId: '20261103090000_gamma' });
    writeFileSync(join(b, 'review_report.json'), JSON.stringify({ overall_score: 7.5 }));
    writeGate(a, 'draft', { status: 'fail', errors: [{ type: 'numeric_mismatch' }] });
    writeGate(b, 'draft', { status: 'pass' });
    writeGate(b, 'final', { warnings: [{ type: 'no_claims' }] });
    const { status, body } = await (await start()).get('/api/checkpoints');
    expect(status).toBe(200);
    expect(body.map((e: { id: string; review_score: number | null; claim_gate: unknown }) => [e.id, e.review_score, e.claim_gate])).toEqual([
      [basename(c), null, null],
      [B, 7.5, { phase: 'final', status: 'warn', mode: 'warn', should_block: false, errors: 0, warnings: 1 }],
      [A, null, { phase: 'draft', status: 'fail', mode: 'warn', should_block: false, errors: 1, warnings: 0 }],
    ]);
  });

  test('only <digits>_<slug> directories are runs: a stray folder, even one holding a tree, is not listed', async () => {
    writeCheckpoint(root, { runId: A });
    writeCheckpoint(root, { runId: 'backup_of_old_runs' });
    writeCheckpoint(root, { runId: '2026_short_stamp' });
    mkdirSync(join(root, 'notes'));
    const { body } = await (await start()).get('/api/checkpoints');
    expect(body.map((e: { id: string }) => e.id)).toEqual([A]);
  });

  test('a damaged tree.json still lists, beside the healthy ones', async () => {
    writeCheckpoint(root, { runId: A });
    const b = writeCheckpoint(root, { runId: B });
    writeFileSync(join(b, 'tree.json'), '{"nodes": [{"id": "n0"}, {"id": "n1", "metr');
    const v = await start();
    const { status, body } = await v.get('/api/checkpoints');
    expect(status).toBe(200);
    expect(body.map((e: { id: string; node_count: number }) => [e.id, e.node_count])).toEqual([
      [B, 1],
      [A, 10],
    ]);
  });

  test('notices a node written to tree.json and a new checkpoint directory', async () => {
    const a = writeCheckpoint(root, { runId: A, nodes: 3 });
    const v = await start();
    expect((await v.get('/api/checkpoints')).body.map((e: { node_count: number }) => e.node_count)).toEqual([3]);
    await Bun.sleep(60);
    expect((await v.get('/api/checkpoints')).body[0].node_count).toBe(3);
    const tree = JSON.parse(readFileSync(join(a, 'tree.json'), 'utf8'));
    tree.nodes.push({ id: 'node_new', status: 'running' });
    writeFileSync(join(a, 'tree.json'), JSON.stringify(tree));
    expect((await v.get('/api/checkpoints')).body[0].node_count).toBe(4);
    writeCheckpoint(root, { runId: B, nodes: 2 });
    const after = (await v.get('/api/checkpoints')).body;
    expect(after.map((e: { id: string; node_count: number }) => [e.id, e.node_count])).toEqual([
      [B, 2],
      [A, 4],
    ]);
  });

  test('running reflects whether the recorded process is alive', async () => {
    const p = Bun.spawn(['sleep', '60']);
    sleepers.push(p);
    writeCheckpoint(root, { runId: A, pid: p.pid });
    const v = await start();
    expect((await v.get('/api/checkpoints')).body[0].status).toBe('running');
    p.kill();
    await p.exited;
    expect((await v.get('/api/checkpoints')).body[0].status).toBe('done');
  });
});

describe('GET /api/checkpoint/:id/summary', () => {
  test('the run summary; report files when present; the node list only when asked', async () => {
    const a = writeCheckpoint(root, { runId: A, nodes: 8 });
    writeFileSync(join(a, 'review_report.json'), JSON.stringify({ overall_score: 6, decision: 'accept' }));
    writeGate(a, 'final', { policy: { mode: 'strict' }, status: 'fail', should_block: true, errors: [{ type: 'numeric_mismatch' }] });
    writeFileSync(join(a, 'ors_grade.json'), JSON.stringify({ ors_score: 0.5, raw_score: 0.5, leaf_grades: [] }));
    mkdirSync(join(a, 'repro'));
    writeFileSync(join(a, 'repro', 'reproducibility_report.json'), JSON.stringify({ verdict: 'reproduced', checks: 3 }));
    const v = await start();
    const { status, body } = await v.get(`/api/checkpoint/${A}/summary`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: A,
      path: a,
      status: 'done',
      goal: 'Maximise throughput of the generated kernel.',
      ideas: [{ title: 'Generated idea', overall_score: 0.6 }],
      node_count: 8,
      nodes: { total: 8, failed: 1, success: 7 },
      best: { id: 'node_00000007', score: 0.9, metric: 'throughput', value: 107 },
      top_metric: { name: 'throughput', value: 107, node_id: 'node_00000007' },
      cost: { usd: 1.25, tokens: 5000, calls: 12 },
      review_score: 6,
      claim_gate: { phase: 'final', status: 'fail', mode: 'strict', should_block: true, errors: 1, warnings: 0 },
      review: { overall_score: 6, decision: 'accept' },
      reproducibility_report: { verdict: 'reproduced', checks: 3 },
      ors: { grade: { ors_score: 0.5, raw_score: 0.5, leaf_grades: [] } },
      problems: [],
    });
    expect(body).not.toHaveProperty('nodes_list');
    const withNodes = await v.get(`/api/checkpoint/${A}/summary?nodes=1`);
    expect(withNodes.body.nodes_list.map((n: { id: string }) => n.id)).toHaveLength(8);
    expect(withNodes.body.nodes_list[0].id).toBe(`node_${A}_root`);
  });

  test("where each node ran, from the nodes' reports: host, scheduler job, image; a node without a readable report is left out", async () => {
    writeCheckpoint(root, { runId: A, nodes: 4 });
    const report = (node: string, body: string) => {
      mkdirSync(join(ws, 'experiments', A, node), { recursive: true });
      writeFileSync(join(ws, 'experiments', A, node, 'node_report.json'), body);
    };
    report('node_00000001', JSON.stringify({ executor: 'slurm', hostname: 'cn042', slurm_job_id: '4242', container: null }));
    report('node_00000002', JSON.stringify({ executor: 'local', hostname: 'laptop', slurm_job_id: null, container: { runtime: 'docker', image: 'python:3.12', digest: 'sha256:ab' } }));
    report('node_00000003', '{"executor": "slurm"');
    const v = await start();
    const { body } = await v.get(`/api/checkpoint/${A}/summary`);
    expect(body.placements).toEqual({
      node_00000001: { executor: 'slurm', host: 'cn042', job_id: '4242', image: null },
      node_00000002: { executor: 'local', host: 'laptop', job_id: null, image: 'python:3.12' },
    });
  });

  test('a bare checkpoint answers id and path and leaves absent reports out', async () => {
    mkdirSync(join(root, A));
    writeFileSync(join(root, A, 'launch_config.json'), '{}');
    const v = await start();
    const { status, body } = await v.get(`/api/checkpoint/${A}/summary`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: A, path: join(root, A), status: 'new', node_count: 0 });
    for (const key of ['review', 'reproducibility_report', 'ors', 'nodes_list']) expect(body).not.toHaveProperty(key);
  });

  test.skipIf(lacks('latex') || lacks('pdftools'))("the paper when the run has one: the .tex, the PDF, the title and the pages its compile recorded; absent when there is none", async () => {
    const a = writeCheckpoint(root, { runId: A });
    writeCheckpoint(root, { runId: B });
    // a two-page paper, compiled here; its title has a command, an escape and a line break
    writeFileSync(join(a, 'full_paper.tex'), '\\documentclass{article}\n% \\title{Not this one}\n\\title{Fewer \\emph{Comparisons} \\& Shell Sort\\\\ A Study}\n\\begin{document}\n\\maketitle\nOne.\\newpage\nTwo.\n\\end{document}\n');
    const v = await start();
    // compiled by the dashboard, which records the page count beside the PDF
    const build = await v.post('/api/checkpoint/compile', { id: A, path: 'full_paper.tex' });
    expect(build.status, JSON.stringify(build.body)).toBe(200);
    const { status, body } = await v.get(`/api/checkpoint/${A}/summary`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: A, path: a });
    expect(body.paper).toEqual({ tex_path: join(a, 'full_paper.tex'), pdf_path: join(a, 'full_paper.pdf'), title: 'Fewer Comparisons & Shell Sort A Study', pages: 2 });
    const none = await v.get(`/api/checkpoint/${B}/summary`);
    expect(none.body).toMatchObject({ id: B, path: join(root, B) });
    expect(none.body).not.toHaveProperty('paper');
    // the PDF made again by hand, one page now: the record counted another PDF, and the summary does not count pages itself
    writeFileSync(join(a, 'full_paper.tex'), '\\documentclass{article}\n\\title{Fewer}\n\\begin{document}\n\\maketitle\nOne.\n\\end{document}\n');
    const again = Bun.spawnSync(['pdflatex', '-interaction=nonstopmode', '-halt-on-error', 'full_paper.tex'], { cwd: a, stdout: 'pipe', stderr: 'pipe' });
    expect(again.exitCode, again.stdout.toString().slice(-800)).toBe(0);
    expect((await v.get(`/api/checkpoint/${A}/summary`)).body.paper).toEqual({ tex_path: join(a, 'full_paper.tex'), pdf_path: join(a, 'full_paper.pdf'), title: 'Fewer', pages: null });
  });

  test('the page count the finalize stage recorded for this PDF is used as is; a source without a PDF has pages null', async () => {
    const a = writeCheckpoint(root, { runId: A });
    writeFileSync(join(a, 'full_paper.pdf'), '%PDF-1.5 not a real one\n');
    writeFileSync(join(a, 'finalize_paper.json'), JSON.stringify({ tex_path: join(a, 'full_paper.tex'), pdf_path: join(a, 'full_paper.pdf'), pages: 7 }));
    const b = writeCheckpoint(root, { runId: B });
    writeFileSync(join(b, 'full_paper.tex'), '\\documentclass{article}\\begin{document}x\\end{document}\n');
    const v = await start();
    expect((await v.get(`/api/checkpoint/${A}/summary`)).body.paper).toEqual({ tex_path: null, pdf_path: join(a, 'full_paper.pdf'), title: null, pages: 7 });
    expect((await v.get(`/api/checkpoint/${B}/summary`)).body.paper).toEqual({ tex_path: join(b, 'full_paper.tex'), pdf_path: null, title: null, pages: null });
  });

  test('a legacy text reproducibility report is a string; damaged files are named in problems', async () => {
    const a = writeCheckpoint(root, { runId: A });
    writeFileSync(join(a, 'reproducibility_report.json'), 'Reproduced 3 of 4 claims.\n');
    writeFileSync(join(a, 'review_report.json'), '{"overall_score": 7');
    const b = writeCheckpoint(root, { runId: B });
    writeFileSync(join(b, 'reproducibility_report.md'), '# Reproducibility\n\nAll claims hold.\n');
    const v = await start();
    const ra = (await v.get(`/api/checkpoint/${A}/summary`)).body;
    expect(ra.reproducibility_report).toBe('Reproduced 3 of 4 claims.\n');
    expect(ra).not.toHaveProperty('review');
    expect(ra.problems).toHaveLength(1);
    expect(ra.problems[0]).toContain(`${join(a, 'review_report.json')}: is not valid JSON`);
    expect((await v.get(`/api/checkpoint/${B}/summary`)).body.reproducibility_report).toBe('# Reproducibility\n\nAll claims hold.\n');
  });

  test('unknown ids and ids that try to leave the checkpoints directory: 404 not found', async () => {
    writeCheckpoint(root, { runId: A });
    writeCheckpoint(ws, { runId: 'outside' });
    const v = await start();
    for (const id of ['nope', '..%2Foutside', '%2E%2E%2Foutside', '%2Fetc', 'outside', `${A}%2F..`]) {
      expect(await v.get(`/api/checkpoint/${id}/summary`)).toEqual({ status: 404, body: { error: 'not found' } });
    }
    // a client normalises a literal `..` away before sending; the path then names no endpoint
    expect((await v.get('/api/checkpoint/../outside/summary')).status).toBe(404);
  });

  test('a bad nodes flag: 400', async () => {
    writeCheckpoint(root, { runId: A });
    const v = await start();
    const r = await v.get(`/api/checkpoint/${A}/summary?nodes=yes`);
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('query.nodes');
  });
});

const BACKUP = [
  { kind: 'core_seed', persona: 'p', human: 'h', context: 'c', seeded_at: '2026-11-01T09:00:00Z' },
  { kind: 'node_scope', node_id: 'node_a', text: 'tile by 32', metadata: { step: 2 }, ts: 1 },
  { kind: 'react_step', text: 'ran make', metadata: { node_id: 'node_a' }, ts: 2 },
  { kind: 'node_scope', node_id: 'node_b', text: 'unroll', metadata: {}, ts: 3 },
];

describe('GET /api/checkpoint/:id/memory', () => {
  test('no backup file: an empty list', async () => {
    writeCheckpoint(root, { runId: A });
    const v = await start();
    const r = await v.get(`/api/checkpoint/${A}/memory`);
    expect(r).toMatchObject({ status: 200, body: { source: null, entries: [], skipped: 0, problems: [], truncated: false, backend: { url: NO_MEMORY.MEMBACKEND_BASE_URL, reachable: false, agent_id: null } } });
  });

  test('the records of memory_backup.jsonl.gz; ?node_id= filters; damaged lines are counted', async () => {
    const a = writeCheckpoint(root, { runId: A });
    const text = `${BACKUP.map((r) => JSON.stringify(r)).join('\n')}\n{"kind": "node_scope", "node_id": "node_b", "te\n`;
    writeFileSync(join(a, 'memory_backup.jsonl.gz'), gzipSync(text));
    const v = await start();
    const all = await v.get(`/api/checkpoint/${A}/memory`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ source: 'memory_backup.jsonl.gz', entries: BACKUP, skipped: 1 });
    const one = await v.get(`/api/checkpoint/${A}/memory?node_id=node_a`);
    expect(one.body.entries).toEqual([BACKUP[1], BACKUP[2]]);
  });

  test('unknown checkpoint: 404; an empty node_id: 400', async () => {
    writeCheckpoint(root, { runId: A });
    const v = await start();
    expect(await v.get('/api/checkpoint/nope/memory')).toEqual({ status: 404, body: { error: 'not found' } });
    expect((await v.get(`/api/checkpoint/${A}/memory?node_id=`)).status).toBe(400);
  });
});

describe('GET /api/checkpoint/:id/memory_access', () => {
  const ev = (ts: number, node: string) => JSON.stringify({ ts, node_id: node, op: 'write', collection: 'c', entry_id: `e${ts}` });

  test('no log: empty', async () => {
    writeCheckpoint(root, { runId: A });
    const v = await start();
    expect(await v.get(`/api/checkpoint/${A}/memory_access`)).toEqual({ status: 200, body: { sources: [], events: [], truncated: false, skipped: 0, summary: null, problems: [], source: null } });
  });

  test('rotated and live logs oldest first, the summary, ?limit= and ?node_id=', async () => {
    const a = writeCheckpoint(root, { runId: A });
    writeFileSync(join(a, 'memory_access.1762000000.jsonl'), `${ev(1, 'x')}\n${ev(2, 'y')}\n`);
    writeFileSync(join(a, 'memory_access.jsonl'), `${ev(3, 'x')}\n${ev(4, 'y')}\n`);
    writeFileSync(join(a, 'memory_access.summary.json'), JSON.stringify({ total_writes: 4 }));
    const v = await start();
    const all = (await v.get(`/api/checkpoint/${A}/memory_access`)).body;
    expect(all.sources).toEqual(['memory_access.1762000000.jsonl', 'memory_access.jsonl']);
    expect(all.source).toBe('access_log');
    expect(all.events.map((e: { ts: number }) => e.ts)).toEqual([1, 2, 3, 4]);
    expect(all.summary).toEqual({ total_writes: 4 });
    const newest = (await v.get(`/api/checkpoint/${A}/memory_access?limit=3`)).body;
    expect(newest.events.map((e: { ts: number }) => e.ts)).toEqual([2, 3, 4]);
    expect(newest.truncated).toBe(true);
    const x = (await v.get(`/api/checkpoint/${A}/memory_access?node_id=x&limit=10`)).body;
    expect(x.events.map((e: { ts: number }) => e.ts)).toEqual([1, 3]);
  });

  test('a bad limit: 400; unknown checkpoint: 404', async () => {
    writeCheckpoint(root, { runId: A });
    const v = await start();
    for (const limit of ['0', '-1', 'abc', '1.5', '100001', '']) {
      const r = await v.get(`/api/checkpoint/${A}/memory_access?limit=${limit}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('limit must be a whole number from 1 to 100000');
    }
    expect(await v.get('/api/checkpoint/nope/memory_access')).toEqual({ status: 404, body: { error: 'not found' } });
  });
});

describe('active checkpoint and switching', () => {
  test('the newest checkpoint is active at start; none without checkpoints', async () => {
    writeCheckpoint(root, { runId: A });
    const b = writeCheckpoint(root, { runId: B });
    const v = await start();
    expect(await v.get('/api/active-checkpoint')).toEqual({ status: 200, body: { id: B, path: b } });
    await v.stop();
    const empty = join(dir, 'empty');
    mkdirSync(join(empty, 'checkpoints'), { recursive: true });
    viz = await startViz([empty], { cwd: dir });
    expect(await viz.get('/api/active-checkpoint')).toEqual({ status: 200, body: { id: null, path: null } });
  });

  test('switch by id or by path; /state follows', async () => {
    const a = writeCheckpoint(root, { runId: A });
    const b = writeCheckpoint(root, { runId: B });
    const v = await start();
    expect(await v.post('/api/switch-checkpoint', { id: A })).toEqual({ status: 200, body: { id: A, path: a } });
    expect(await v.get('/api/active-checkpoint')).toEqual({ status: 200, body: { id: A, path: a } });
    expect((await v.get('/state')).body.checkpoint_id).toBe(A);
    expect(await v.post('/api/switch-checkpoint', { path: b })).toEqual({ status: 200, body: { id: B, path: b } });
    expect(await v.post('/api/switch-checkpoint', { path: A })).toEqual({ status: 200, body: { id: A, path: a } });
  });

  test('unknown, escaping and malformed targets are refused and the selection stays', async () => {
    const a = writeCheckpoint(root, { runId: A });
    writeCheckpoint(ws, { runId: 'outside' });
    mkdirSync(join(a, 'nested'));
    writeFileSync(join(a, 'nested', 'tree.json'), '{"nodes": []}');
    const v = await start();
    const refusals: [unknown, number][] = [
      [{ id: 'nope' }, 404],
      [{ id: '..' }, 404],
      [{ id: '../outside' }, 404],
      [{ id: '..%2Foutside' }, 404],
      [{ id: join(ws, 'outside') }, 404],
      [{ path: join(ws, 'outside') }, 400],
      [{ path: '../outside' }, 400],
      [{ path: '/etc' }, 400],
      [{ path: join(a, 'nested') }, 404],
      [{ path: root }, 404],
      [{}, 400],
      [{ id: A, path: a }, 400],
      [{ id: 7 }, 400],
      [{ path: ['x'] }, 400],
      [{ id: '' }, 400],
      [[A], 400],
    ];
    for (const [body, status] of refusals) {
      const r = await v.post('/api/switch-checkpoint', body);
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), status]);
      expect(typeof r.body.error).toBe('string');
    }
    const malformed = await v.req('/api/switch-checkpoint', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id": ' });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: string }).error).toContain('malformed request body');
    expect((await v.get('/api/active-checkpoint')).body).toEqual({ id: A, path: a });
  });
});

describe('POST /api/delete-checkpoint', () => {
  test('removes the checkpoint and its experiments directory; the list no longer has it', async () => {
    const a = writeCheckpoint(root, { runId: A });
    const b = writeCheckpoint(root, { runId: B });
    const experiments = join(ws, 'experiments', A);
    mkdirSync(join(experiments, 'node_1'), { recursive: true });
    const v = await start();
    expect((await v.get('/api/checkpoints')).body).toHaveLength(2);
    expect(await v.post('/api/delete-checkpoint', { id: A })).toMatchObject({ status: 200, body: { ok: true, deleted: A, removed: [a, experiments], memory: { deleted: false } } });
    expect(existsSync(a)).toBe(false);
    expect(existsSync(experiments)).toBe(false);
    expect((await v.get('/api/checkpoints')).body.map((e: { id: string }) => e.id)).toEqual([B]);
    // the active one was the other checkpoint, and stays active
    expect((await v.get('/api/active-checkpoint')).body).toEqual({ id: B, path: b });
  });

  test('deleting the active checkpoint leaves none active', async () => {
    writeCheckpoint(root, { runId: A });
    const b = writeCheckpoint(root, { runId: B });
    const v = await start();
    expect(await v.post('/api/delete-checkpoint', { path: b })).toMatchObject({ status: 200, body: { ok: true, deleted: B, removed: [b] } });
    expect((await v.get('/api/active-checkpoint')).body).toEqual({ id: null, path: null });
    expect((await v.get('/state')).body).not.toHaveProperty('checkpoint_id');
  });

  test('a running checkpoint: 409, and it is still there', async () => {
    const p = Bun.spawn(['sleep', '60']);
    sleepers.push(p);
    const a = writeCheckpoint(root, { runId: A, pid: p.pid });
    const v = await start();
    expect(await v.post('/api/delete-checkpoint', { id: A })).toEqual({ status: 409, body: { error: `checkpoint ${A} is running (pid ${p.pid}) (stop the run first)` } });
    expect(existsSync(join(a, 'tree.json'))).toBe(true);
  });

  test('unknown, escaping and malformed targets delete nothing', async () => {
    const a = writeCheckpoint(root, { runId: A });
    const outside = writeCheckpoint(ws, { runId: 'outside' });
    const elsewhere = writeCheckpoint(dir, { runId: 'elsewhere' });
    symlinkSync(elsewhere, join(root, 'linked'));
    const v = await start();
    const refusals: [unknown, number][] = [
      [{ id: 'nope' }, 404],
      [{ id: '..' }, 404],
      [{ id: '../outside' }, 404],
      [{ id: '..%2Foutside' }, 404],
      [{ id: 'linked' }, 404],
      [{ id: outside }, 404],
      [{ path: outside }, 400],
      [{ path: '../outside' }, 400],
      [{ path: join(root, 'linked') }, 400],
      [{ path: root }, 404],
      [{ path: '/' }, 400],
      [{}, 400],
      [{ id: true }, 400],
      [{ path: 3 }, 400],
      ['A', 400],
    ];
    for (const [body, status] of refusals) {
      const r = await v.post('/api/delete-checkpoint', body);
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), status]);
      expect(typeof r.body.error).toBe('string');
    }
    const malformed = await v.req('/api/delete-checkpoint', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{id: A}' });
    expect(malformed.status).toBe(400);
    for (const kept of [a, outside, elsewhere]) expect(existsSync(join(kept, 'tree.json'))).toBe(true);
    expect(existsSync(join(root, 'linked'))).toBe(true);
  });
});
