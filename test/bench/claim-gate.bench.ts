// The claim gate on a 12-page paper with 200 numbers (runClaimGate through claimGate with
// tex_path: the paper read, every anchor and number linked to science_data.json and the nodes'
// results, coverage by section, figures, the metric contract's formula, invariants and
// correctness check on every node) against one call to a scripted model server that takes 1 s per
// call: the gate runs at finalization beside model calls, and must cost next to nothing beside
// one. Target: under 5% of one model call.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claimGate } from '../../src/evaluate/claim-gate/index.ts';
import { formatClaimValue } from '../../src/paper/claims.ts';
import { type GateNode, writeGateRun } from '../support/claim-gate-paper.ts';
import { startModelServer } from '../support/model-server.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { median, report } from './measure.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const CALL_MS = 1000;
const NODES = 20;
const dir = tempDir('svc-bench-gate-');
mkdirSync(join(dir, 'home'));

const round2 = (x: number) => Math.round(x * 100) / 100;
const nodes: GateNode[] = Array.from({ length: NODES }, (_, i) => ({
  id: `node_${String(i).padStart(3, '0')}`,
  params: { algorithm: 'shell', gap_ratio: round2(1.5 + 0.1 * i), seed: 42 },
  measurements: { comparisons: 1000 - 40 * i, time_s: round2(2 - 0.07 * i), moves: 900 - 35 * i },
}));
const run = writeGateRun(dir, nodes);
writeFileSync(
  join(run.ckpt, 'metric_contract.json'),
  JSON.stringify({ key: 'comparisons', formula: 'comparisons', invariants: ['comparisons > 0', 'time_s > 0'], correctness: { expr: 'moves <= comparisons', requires: ['moves'] }, required_measured: ['comparisons', 'time_s'], claims: [], tolerance: { absolute: 0, relative: 0.02 } }),
);

/** 200 numbers: 100 anchors, 60 unanchored measurements, 20 settings, 20 uncovered in warn and excluded sections. */
function paper(): { tex: string; numbers: number } {
  let count = 0;
  const anchor = (i: number, metric: keyof GateNode['measurements']) => {
    count++;
    const n = nodes[i % NODES] as GateNode;
    return `\\svcclaim{${n.id}.${metric}}{${formatClaimValue(`${n.id}.${metric}`, n.measurements[metric] as number)}}`;
  };
  const bare = (i: number) => {
    count++;
    return String((nodes[i % NODES] as GateNode).measurements.time_s);
  };
  const setting = (i: number) => {
    count++;
    return String((nodes[i % NODES] as GateNode).params?.gap_ratio);
  };
  const stray = (i: number) => {
    count++;
    return `${(17.3 + i * 3.1).toFixed(1)}`;
  };
  const prose = (n: number) => 'Shell sort orders the array through diminishing gaps, and each pass leaves the data closer to sorted than the last one did. '.repeat(n);
  const para = (k: number, f: (i: number) => string, from: number) => Array.from({ length: k }, (_, j) => `Configuration ${j + 1} reaches ${f(from + j)} on the same input. ${prose(2)}`).join('\n\n');
  const body = [
    `\\begin{abstract}\n${para(4, (i) => anchor(i, 'comparisons'), 0)}\n\\end{abstract}`,
    `\\section{Introduction}\n${prose(30)}\n${para(6, (i) => anchor(i, 'time_s'), 4)}`,
    `\\section{Method}\n${prose(30)}\n${para(20, setting, 0)}`,
    `\\section{Experiments}\n${prose(40)}\n${para(40, (i) => anchor(i, 'comparisons'), 10)}\n${para(40, (i) => anchor(i, 'moves'), 0)}\n${para(50, bare, 0)}`,
    `\\section{Discussion}\n${prose(30)}\n${para(10, bare, 50)}\n${para(10, stray, 0)}`,
    `\\section{Conclusion}\n${prose(20)}\n${para(10, (i) => anchor(i, 'time_s'), 10)}`,
    `\\section{Related Work}\n${prose(30)}\n${para(10, stray, 10)}`,
  ].join('\n\n');
  return { tex: `\\documentclass{article}\n\\newcommand{\\svcclaim}[2]{#2}\n\\begin{document}\n${body}\n\\end{document}\n`, numbers: count };
}

const { tex, numbers } = paper();
writeFileSync(join(run.ckpt, 'paper.tex'), tex);
const env = { HOME: join(dir, 'home'), SVC_CHECKPOINT_DIR: run.ckpt };
const gateOnce = (): number => {
  const t0 = performance.now();
  const { report: r } = claimGate({ checkpoint_dir: run.ckpt, phase: 'final', tex_path: 'paper.tex', policy: { mode: 'warn' } }, env);
  const ms = performance.now() - t0;
  if (r.errors.length > 0 || r.metrics.anchors !== 100) throw new Error(`the synthetic paper should pass with 100 anchors: ${JSON.stringify(r.errors.slice(0, 2))}, ${r.metrics.anchors} anchors`);
  return ms;
};
gateOnce(); // warm the page cache and the JIT
const gates = Array.from({ length: ROUNDS }, gateOnce);

const server = startModelServer([], { respond: () => ({ text: 'ok', delayMs: CALL_MS }) });
const callOnce = async (): Promise<number> => {
  const t0 = performance.now();
  const res = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'scripted', messages: [{ role: 'user', content: 'Review the paper.' }] }) });
  await res.json();
  return performance.now() - t0;
};
const calls: number[] = [];
for (let i = 0; i < 3; i++) calls.push(await callOnce());
server.stop();

const call = median(calls);
console.log(`a ${Math.round(tex.length / 1024)} KB paper with ${numbers} numbers (100 anchored), ${NODES} nodes; ${ROUNDS} gate runs, median`);
report('one model call (scripted, 1 s per call)', call, call);
report('claim gate, tex_path, final (warn)', median(gates), call, Math.round(0.05 * call));
console.log(`claim gate / one model call: ${((100 * median(gates)) / call).toFixed(2)}% median, ${((100 * Math.max(...gates)) / call).toFixed(2)}% slowest (target under 5%)`);
removeDir(dir);
