// The benchmark's paper registry as the dashboard serves it: GET /api/bench/papers on a registry
// of 10,000 papers against GET /api/checkpoints on 1,000 checkpoints (50 nodes each), both from
// one `svc viz` started on one workspace, measured alternately in the same run (median of
// sequential requests after a warm-up). Target: the paper list at most 2x the checkpoint list.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyLicense } from '../../src/bench/license.ts';
import { canonicalJson } from '../../src/llm/cassette.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz } from '../support/viz.ts';
import { median } from './measure.ts';

const PAPERS = 10_000;
const CHECKPOINTS = 1_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SAMPLES = 20;
const LICENSES = ['cc-by-4.0', 'mit', 'cc by-nc', 'arXiv non-exclusive', ''];

/** A manifest of `n` papers as imports write it: sorted keys, one entry a line. */
function writeManifest(registry: string, n: number): void {
  const lines = Array.from({ length: n }, (_, i) => {
    const id = `2404.${String(i).padStart(5, '0')}`;
    const license = LICENSES[i % LICENSES.length] as string;
    const a = classifyLicense(license);
    return canonicalJson({
      paper_id: id,
      title: `A reproducible study of attention, part ${i}`,
      authors: ['Ada Lovelace', 'Alan Turing', 'Grace Hopper'],
      venue: 'NeurIPS',
      year: 2024,
      source_type: 'arxiv',
      source: id,
      artifact_url: `https://github.com/example/paper-${i}`,
      license: a.license,
      license_assessment: a,
      imported_at: '2026-11-01T12:00:00.000Z',
      registry_dir: join(registry, 'papers', id),
    });
  });
  mkdirSync(registry, { recursive: true });
  writeFileSync(join(registry, 'manifest.jsonl'), `${lines.join('\n')}\n`);
}

/** Median time to the last byte of the answer (the client's own JSON parse is not the server's cost). */
async function latency(url: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  }
  return median(times);
}

/** The answer's size, after checking it lists all it should. */
async function checkedBytes(url: string, count: (body: unknown) => number, want: number): Promise<number> {
  const text = await (await fetch(url)).text();
  const got = count(JSON.parse(text));
  if (got !== want) throw new Error(`${url} listed ${got}, not ${want}`);
  return Buffer.byteLength(text);
}

const dir = tempDir('svc-bench-papers-');
try {
  const workspace = join(dir, 'workspace');
  const t0 = performance.now();
  for (let i = 0; i < CHECKPOINTS; i++) writeCheckpoint(join(workspace, 'checkpoints'), { runId: `20261101${String(i).padStart(6, '0')}_run`, nodes: 50 });
  writeManifest(join(workspace, 'paper_registry'), PAPERS);
  console.log(`wrote ${CHECKPOINTS} checkpoints of 50 nodes and ${PAPERS} papers in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const viz = await startViz([workspace], { cwd: dir, env: { HOME: dir } });
  try {
    const papersUrl = `${viz.base}/api/bench/papers`;
    const checkpointsUrl = `${viz.base}/api/checkpoints`;
    const papersOf = (b: unknown) => (b as { papers: unknown[] }).papers.length;
    const checkpointsOf = (b: unknown) => (b as unknown[]).length;
    const papersBytes = await checkedBytes(papersUrl, papersOf, PAPERS);
    const checkpointsBytes = await checkedBytes(checkpointsUrl, checkpointsOf, CHECKPOINTS);
    const papersMs: number[] = [];
    const checkpointsMs: number[] = [];
    // interleaved rounds: drift on a shared machine affects both alike
    for (let r = 0; r < ROUNDS; r++) {
      checkpointsMs.push(await latency(checkpointsUrl));
      papersMs.push(await latency(papersUrl));
    }
    const [p, c] = [median(papersMs), median(checkpointsMs)];
    const ratio = p / c;
    console.log(`median of ${ROUNDS} rounds of ${SAMPLES} sequential requests each, after a warm-up:`);
    console.log(`  GET /api/checkpoints   ${String(CHECKPOINTS).padStart(6)} checkpoints  ${c.toFixed(2).padStart(8)} ms  ${(checkpointsBytes / 1e6).toFixed(1)} MB`);
    console.log(`  GET /api/bench/papers  ${String(PAPERS).padStart(6)} papers       ${p.toFixed(2).padStart(8)} ms  ${(papersBytes / 1e6).toFixed(1)} MB`);
    console.log(`  ratio ${ratio.toFixed(2)}x  target at most 2x: ${ratio <= 2 ? 'met' : 'MISSED'}`);
  } finally {
    await viz.stop();
  }
} finally {
  removeDir(dir);
}
