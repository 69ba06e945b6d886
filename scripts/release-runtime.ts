// The Bun runtime a release target embeds when Bun's compile would pick the wrong one
// (registryRuntime in release-targets.ts): the runtime package of the running Bun's exact version,
// fetched with npm (its registry and proxy settings), checked against the registry's integrity,
// and kept under dist/.runtimes so the next release does not fetch it again.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../src/core/atomic.ts';
import type { Env } from '../src/core/config/env-vars.ts';
import { runCommand, shellLine } from '../src/core/run-command.ts';

/** Where fetched runtimes are kept: one file per package and version. */
export const RUNTIME_CACHE = 'dist/.runtimes';

const NPM_TIMEOUT_MS = 300_000;

/**
 * The path of the runtime in npm package `pkg` at Bun `version`, kept in `cache` and fetched on
 * first use with the npm and tar of `env`'s PATH. Throws with the failing step when npm cannot
 * fetch it or the tarball differs from the registry's integrity; nothing is kept then.
 */
export async function registryRuntimePath(pkg: string, version: string, cache = RUNTIME_CACHE, env: Env = process.env): Promise<string> {
  const path = join(cache, `${pkg.replace(/^@oven\//, '')}-v${version}`);
  if (existsSync(path)) return path;
  const spec = `${pkg}@${version}`;
  const integrity = JSON.parse(await npm(env, ['view', spec, 'dist.integrity', '--json'])) as string;
  const work = mkdtempSync(join(tmpdir(), 'svc-runtime-'));
  try {
    const [packed] = JSON.parse(await npm(env, ['pack', spec, '--json', '--pack-destination', work])) as { filename: string }[];
    const tarball = join(work, packed?.filename ?? '');
    const actual = `sha512-${new Bun.CryptoHasher('sha512').update(readFileSync(tarball)).digest('base64')}`;
    if (actual !== integrity) throw new Error(`${spec}: the tarball's integrity ${actual} is not the registry's ${integrity}`);
    await run(env, ['tar', '-xzf', tarball, '-C', work, 'package/bin/bun']);
    writeFileAtomic(path, readFileSync(join(work, 'package', 'bin', 'bun')), 0o755);
    return path;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function npm(env: Env, args: string[]): Promise<string> {
  return run(env, ['npm', ...args]);
}

async function run(env: Env, cmd: string[]): Promise<string> {
  const [name, ...args] = cmd as [string, ...string[]];
  const program = Bun.which(name, { PATH: env.PATH ?? '' });
  if (!program) throw new Error(`${name} is not on PATH: the Bun runtime a release target embeds is fetched with npm and unpacked with tar`);
  const r = await runCommand([program, ...args], env, NPM_TIMEOUT_MS);
  if (r.code !== 0) throw new Error(`${shellLine(cmd)} failed: ${r.timedOut ? 'timed out' : (firstReason(r.stderr) ?? `exit ${r.code}`)}`);
  return r.stdout;
}

/** The first line of a failure that says what went wrong: npm begins with its error code and ends with its log's path. */
function firstReason(stderr: string): string | null {
  return stderr.split('\n').map((l) => l.trim()).find((l) => l !== '' && !/^npm error code /.test(l)) ?? null;
}
