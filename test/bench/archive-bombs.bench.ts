// Peak memory of every reader of bundles on hostile archives, next to a legitimate bundle of the
// same packed size, in one run: `svc clone` (its code in a child process), the dashboard serving
// clone-verify, and the registry receiving an upload. Archives: 2 GiB of zeros after a valid
// bundle's end marker (2 MB packed), a file entry unpacking to 2 GiB before manifest.lock (2 MB),
// 1.5 GiB of files and no manifest.lock (6 MB), and 64 MiB of random data after the end marker. What an archive costs is the growth of the
// process's peak RSS (Linux's VmHWM) over its resting RSS: for the servers, reset before each
// request with clear_refs 5; for clone, over a child that loads the same code and clones nothing.
// Target: every cost under 100 MB, and a hostile archive's no more than 1.5 times (+10 MB) that
// of the legitimate bundle of its size.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { entryBomb, legitimateBundle, noManifestBomb, trailingGarbage, trailingZerosBomb } from '../support/archive-bombs.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { spawnRegistry } from '../support/registry-server.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';
import { startViz } from '../support/viz.ts';

const TARGET_MB = 100;
const CLONE = resolve(import.meta.dir, '../../src/clone/clone.ts');
const dir = tempDir('svc-bench-bombs-');
const MB = 1024 * 1024;

const statusMb = (pid: number, field: 'VmHWM' | 'VmRSS') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const resetPeak = (pid: number) => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not allowed here: the peak is then the process's whole life so far
  }
};

/** `svc clone` of `file` (none: load the code only) in a child process: its peak, and whether it cloned or refused. */
async function clonePeak(file: string | null, dest: string): Promise<{ mb: number; outcome: string }> {
  const run = file === null ? '' : `await cloneBundle(${JSON.stringify(`file://${file}`)}, ${JSON.stringify(dest)}, { env: {} });`;
  const script = `const { cloneBundle } = await import(${JSON.stringify(CLONE)}); let outcome = 'cloned'; try { ${run} } catch (e) { outcome = 'refused'; } const m = /VmHWM:\\s+(\\d+) kB/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8')); console.log(JSON.stringify({ kb: m ? Number(m[1]) : -1, outcome }));`;
  const proc = Bun.spawn([process.execPath, '-e', script], { stdout: 'pipe', stderr: 'inherit' });
  const { kb, outcome } = JSON.parse(await new Response(proc.stdout).text()) as { kb: number; outcome: string };
  await proc.exited;
  return { mb: kb / 1024, outcome };
}

type Case = { name: string; file: string; packed: number; baseline: string };

const cases: Case[] = [];
const add = (name: string, baseline: string, make: (file: string) => number) => {
  const file = join(dir, `${name}.tar.gz`);
  cases.push({ name, file, packed: make(file), baseline });
};
add('legitimate, 2 MB', 'legitimate, 2 MB', (f) => legitimateBundle(dir, f, 3.7 * MB));
add('2 GiB of zeros after the end', 'legitimate, 2 MB', (f) => trailingZerosBomb(dir, f));
add('2 GiB entry before manifest', 'legitimate, 2 MB', (f) => entryBomb(dir, f, 'before-manifest'));
add('legitimate, 6 MB', 'legitimate, 6 MB', (f) => legitimateBundle(dir, f, 11 * MB));
add('1.5 GiB, no manifest', 'legitimate, 6 MB', (f) => noManifestBomb(f));
add('legitimate, 68 MB', 'legitimate, 68 MB', (f) => legitimateBundle(dir, f, 130 * MB));
add('64 MiB random after the end', 'legitimate, 68 MB', (f) => trailingGarbage(dir, f));

const ws = join(dir, 'ws');
writeCheckpoint(join(ws, 'checkpoints'), { nodes: 2 });
const viz = await startViz([ws], { cwd: dir });
const data = join(dir, 'registry');
(await import('node:fs')).mkdirSync(data);
const token = (await svc(['registry', 'token', 'issue', 'bench', '--data-dir', data], { cwd: dir })).stdout.trim();
const registry = await spawnRegistry(data);

/** What `act` costs a server: its peak RSS during it over its RSS before. */
async function serverCost<T>(pid: number, act: () => Promise<T>): Promise<[T, number]> {
  resetPeak(pid);
  const resting = statusMb(pid, 'VmRSS');
  const out = await act();
  return [out, statusMb(pid, 'VmHWM') - resting];
}

const rows: { c: Case; clone: number; verify: number; upload: number; outcomes: string }[] = [];
try {
  const resting = (await clonePeak(null, join(dir, 'none'))).mb;
  for (const [i, c] of cases.entries()) {
    const clone = await clonePeak(c.file, join(dir, `out-${i}`));
    const [verified, verify] = await serverCost(viz.proc.pid, () => viz.post('/api/ear/clone-verify', { ref: `file://${c.file}` }));
    const [up, upload] = await serverCost(registry.proc.pid, () => fetch(`${registry.url}/artifact`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: Bun.file(c.file) }));
    await up.arrayBuffer();
    rows.push({ c, clone: clone.mb - resting, verify, upload, outcomes: `clone ${clone.outcome}, verify ${verified.body.ok ? 'ok' : 'refused'}, upload ${up.status}` });
  }
} finally {
  await viz.stop();
  await registry.stop();
  removeDir(dir);
}

console.log(`${'archive'.padEnd(30)} ${'packed'.padStart(8)}  ${'clone'.padStart(17)}  ${'clone-verify'.padStart(17)}  ${'registry upload'.padStart(17)}  outcome`);
console.log(`${''.padEnd(40)}  (growth of the peak RSS over the resting process; ratio to the legitimate bundle of the same packed size)`);
const baseOf = (r: (typeof rows)[number]) => rows.find((b) => b.c.name === r.c.baseline) ?? r;
for (const r of rows) {
  const base = baseOf(r);
  const cell = (mb: number, baseMb: number) => `+${mb.toFixed(0)} MB ${(Math.max(mb, 1) / Math.max(baseMb, 1)).toFixed(2)}x`.padStart(17);
  console.log(`${r.c.name.padEnd(30)} ${`${(r.c.packed / MB).toFixed(1)} MB`.padStart(8)}  ${cell(r.clone, base.clone)}  ${cell(r.verify, base.verify)}  ${cell(r.upload, base.upload)}  ${r.outcomes}`);
}
const worst = Math.max(...rows.flatMap((r) => [r.clone, r.verify, r.upload]));
const within = rows.every((r) => {
  const base = baseOf(r);
  return [[r.clone, base.clone], [r.verify, base.verify], [r.upload, base.upload]].every(([mb, b]) => (mb as number) <= 1.5 * (b as number) + 10);
});
console.log(`highest cost +${worst.toFixed(0)} MB (target < ${TARGET_MB} MB: ${worst < TARGET_MB ? 'met' : 'MISSED'}); every hostile archive within 1.5x (+10 MB) of the legitimate one: ${within ? 'met' : 'MISSED'}`);
