// The Bun runtime a release target embeds when Bun's compile would pick the wrong one
// (registryRuntime in release-targets.ts): the runtime package of the running Bun's exact version,
// fetched with npm (its registry and proxy settings), checked against the registry's integrity,
// and kept under dist/.runtimes so the next release does not fetch it again.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../src/core/atomic.ts';
import { lastLine, runCommand, shellLine } from '../src/core/run-command.ts';

/** Where fetched runtimes are kept: one file per package and version. */
export const RUNTIME_CACHE = 'dist/.runtimes';

const NPM_TIMEOUT_MS = 300_000;

/**
 * The path of the runtime in npm package `pkg` at Bun `version`, fetched on first use. Throws with
 * the failing step when npm cannot fetch it or the tarball differs from the registry's integrity.
 */
export async function registryRuntimePath(pkg: string, version: string, cache = RUNTIME_CACHE): Promise<string> {
  const path = join(cache, `${pkg.replace(/^@oven\//, '')}-v${version}`);
  if (existsSync(path)) return path;
  const spec = `${pkg}@${version}`;
  const integrity = JSON.parse(await npm(['view', spec, 'dist.integrity', '--json'])) as string;
  const work = mkdtempSync(join(tmpdir(), 'svc-runtime-'));
  try {
    const [packed] = JSON.parse(await npm(['pack', spec, '--json', '--pack-destination', work])) as { filename: string }[];
    const tarball = join(work, packed?.filename ?? '');
    const actual = `sha512-${new Bun.CryptoHasher('sha512').update(readFileSync(tarball)).digest('base64')}`;
    if (actual !== integrity) throw new Error(`${spec}: the tarball's integrity ${actual} is not the registry's ${integrity}`);
    await run(['tar', '-xzf', tarball, '-C', work, 'package/bin/bun']);
    writeFileAtomic(path, readFileSync(join(work, 'package', 'bin', 'bun')), 0o755);
    return path;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function npm(args: string[]): Promise<string> {
  return run(['npm', ...args]);
}

async function run(cmd: string[]): Promise<string> {
  if (!Bun.which(cmd[0] as string)) throw new Error(`${cmd[0]} is not on PATH: it fetches the Bun runtime a release target embeds`);
  const r = await runCommand(cmd, process.env, NPM_TIMEOUT_MS);
  if (r.code !== 0) throw new Error(`${shellLine(cmd)} failed: ${r.timedOut ? 'timed out' : (lastLine(r.stderr) ?? `exit ${r.code}`)}`);
  return r.stdout;
}
