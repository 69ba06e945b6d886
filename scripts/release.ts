// Builds dist/release/svc-<os>-<arch> for every platform svc is released for, each with the same
// embedded UI and assets as dist/svc, and dist/release/SHA256SUMS (as `sha256sum -c` reads it).
// `--only a,b` builds those targets alone; `--out DIR` writes elsewhere (to compare two builds);
// `--runtimes DIR` keeps the Bun runtimes fetched from the npm registry elsewhere than dist/.runtimes.
import { mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeFileAtomic } from '../src/core/atomic.ts';
import { oneLine } from '../src/core/errors.ts';
import { bundleUi, checkManifest, compileSvc, holdBuildLock, UI_DIR } from './build-lib.ts';
import { RUNTIME_CACHE, registryRuntimePath } from './release-runtime.ts';
import { RELEASE_TARGETS, type ReleaseTarget, registryRuntime, runsHere } from './release-targets.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const { values } = parseArgs({ options: { only: { type: 'string' }, out: { type: 'string', default: 'dist/release' }, runtimes: { type: 'string', default: RUNTIME_CACHE } } });
const names = values.only?.split(',') ?? RELEASE_TARGETS.map((t) => t.name);
const known = new Map<string, ReleaseTarget>(RELEASE_TARGETS.map((t) => [t.name, t]));
const unknown = names.filter((n) => !known.has(n));
if (unknown.length > 0) fail(`unknown release target ${unknown.join(', ')}: use ${RELEASE_TARGETS.map((t) => t.name).join(', ')}`);
const targets = names.map((n) => known.get(n) as ReleaseTarget);
const outDir = values.out;

// fetched before anything is written: a failed fetch leaves no partial release
const runtimes = new Map<ReleaseTarget, string>();
for (const t of targets) {
  const pkg = registryRuntime(t);
  if (!pkg) continue;
  const runtime = await registryRuntimePath(pkg, Bun.version, values.runtimes).catch((err: unknown) => fail(oneLine(err)));
  runtimes.set(t, runtime);
  console.error(`svc-${t.name}: embeds ${pkg}@${Bun.version} (${runtime})`);
}
holdBuildLock();
await checkManifest();
mkdirSync(outDir, { recursive: true });
const sums: string[] = [];
try {
  await bundleUi(UI_DIR);
  for (const t of targets) {
    const file = `svc-${t.name}`;
    const outfile = join(outDir, file);
    // compiled under the name `svc`, which the executable carries as its entry's path: every
    // target then embeds the same module graph as dist/svc
    const staging = join(outDir, `.${file}`);
    mkdirSync(staging, { recursive: true });
    await compileSvc({ outfile: join(staging, 'svc'), uiDir: UI_DIR, target: t.target, runtime: runtimes.get(t), profile: runsHere(t) });
    renameSync(join(staging, 'svc'), outfile);
    rmSync(staging, { recursive: true, force: true });
    const bytes = readFileSync(outfile);
    sums.push(`${new Bun.CryptoHasher('sha256').update(bytes).digest('hex')}  ${file}\n`);
    console.error(`${file}: ${(bytes.byteLength / 1024 / 1024).toFixed(1)} MB${runsHere(t) ? '' : ' (start not profiled: it does not run here)'}`);
  }
} finally {
  rmSync(UI_DIR, { recursive: true, force: true });
}
writeFileAtomic(join(outDir, 'SHA256SUMS'), sums.join(''));
console.error(`wrote ${join(outDir, 'SHA256SUMS')}`);
