import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { removeDir, tempDir } from '../support/svc.ts';

// npm run release for the platforms that do not run here, checked for format with `file`; one of
// them built twice to show the build is reproducible.

const repo = resolve(import.meta.dir, '..', '..');
const dir = tempDir('svc-release-');
afterAll(() => removeDir(dir));

function release(args: string[], env: Record<string, string | undefined> = process.env) {
  const r = Bun.spawnSync(['bun', 'run', 'scripts/release.ts', ...args], { cwd: repo, env, stdout: 'pipe', stderr: 'pipe' });
  return { code: r.exitCode, stderr: r.stderr.toString() };
}

function sums(out: string): Map<string, string> {
  const lines = readFileSync(join(out, 'SHA256SUMS'), 'utf8').trim().split('\n');
  return new Map(lines.map((l) => [l.slice(66), l.slice(0, 64)]));
}

const FORMATS = {
  'svc-linux-arm64': /^ELF 64-bit LSB executable, ARM aarch64, .*interpreter \/lib\/ld-linux-aarch64\.so\.1/,
  'svc-darwin-x64': /^Mach-O 64-bit x86_64 executable/,
  'svc-darwin-arm64': /^Mach-O 64-bit arm64 executable/,
};

const noFile = Bun.which('file') ? null : 'no file command (apt-get install file)';
if (noFile) console.error(`release: skipped: ${noFile}`);

describe.skipIf(noFile !== null)('the binaries for other machines', () => {
  const out = join(dir, 'a');
  let progress = '';
  beforeAll(() => {
    const r = release(['--only', 'linux-arm64,darwin-x64,darwin-arm64', '--out', out]);
    if (r.code !== 0) throw new Error(`release failed: ${r.stderr}`);
    progress = r.stderr;
  }, 600_000);

  test('file names each one an executable for its OS and CPU', () => {
    expect(readdirSync(out).sort()).toEqual(['SHA256SUMS', 'svc-darwin-arm64', 'svc-darwin-x64', 'svc-linux-arm64']);
    for (const [name, format] of Object.entries(FORMATS)) {
      const r = Bun.spawnSync(['file', '-b', join(out, name)], { stdout: 'pipe' });
      expect(r.stdout.toString()).toMatch(format);
    }
  });

  test('one progress line per target with its size', () => {
    for (const name of Object.keys(FORMATS)) expect(progress).toMatch(new RegExp(`^${name}: \\d+\\.\\d MB`, 'm'));
  });

  test('SHA256SUMS is what sha256sum -c checks', () => {
    const r = Bun.spawnSync(['sha256sum', '-c', 'SHA256SUMS'], { cwd: out, stdout: 'pipe', stderr: 'pipe' });
    expect(r.stderr.toString()).toBe('');
    expect(r.stdout.toString()).toBe('svc-linux-arm64: OK\nsvc-darwin-x64: OK\nsvc-darwin-arm64: OK\n');
  });

  test('a second build of the same tree gives the same bytes', () => {
    const again = join(dir, 'b');
    const r = release(['--only', 'darwin-arm64', '--out', again]);
    expect(r.code).toBe(0);
    expect(sums(again).get('svc-darwin-arm64')).toBe(sums(out).get('svc-darwin-arm64') as string);
  }, 600_000);
});

test('an unknown target is refused with the list, and nothing is written', () => {
  const out = join(dir, 'bad');
  const r = release(['--only', 'linux-x64,windows-x64', '--out', out]);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe('unknown release target windows-x64: use linux-x64, linux-x64-musl, linux-x64-baseline, linux-arm64, darwin-x64, darwin-arm64\n');
  expect(existsSync(out)).toBe(false);
});

// The baseline target on this x64 host: Bun would embed itself (its AVX2 build), so the release
// embeds the runtime of the npm package instead.

const BASELINE_PKG = '@oven/bun-linux-x64-baseline';
const EXAMPLE = join(repo, 'examples/workspace/checkpoints/20261101093000_cache_blocked_matmul');

function baselineMissing(): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64') return 'not an x64 Linux';
  if (!Bun.which('npm')) return 'no npm (it fetches the baseline runtime)';
  if (!Bun.which('readelf') || !Bun.which('tar')) return 'no readelf or tar (apt-get install binutils tar)';
  return Bun.which('git') ? null : 'no git (the version line names the commit)';
}

const noBaseline = baselineMissing();
if (noBaseline) console.error(`release baseline: skipped: ${noBaseline}`);

/** The GNU build ID of an ELF executable: the same for a runtime and every executable compiled from it. */
function buildId(file: string): string {
  const r = Bun.spawnSync(['readelf', '-n', file], { stdout: 'pipe' });
  return /Build ID: ([0-9a-f]+)/.exec(r.stdout.toString())?.[1] ?? `no build ID in ${file}`;
}

const sha256 = (file: string) => new Bun.CryptoHasher('sha256').update(readFileSync(file)).digest('hex');

const noQemu = Bun.which('qemu-x86_64') && Bun.which('cc') ? null : 'no qemu-x86_64 or cc (apt-get install qemu-user gcc)';
if (noQemu) console.error(`release baseline on a CPU without AVX2: skipped: ${noQemu}`);

/** A program that runs one AVX2 instruction: it stops with SIGILL on a CPU without AVX2. */
function avx2Probe(): string {
  const source = join(dir, 'avx2.c');
  writeFileSync(source, 'int main(void) { __asm__ volatile("vpaddd %%ymm0, %%ymm0, %%ymm0" ::: "xmm0"); return 0; }\n');
  const probe = join(dir, 'avx2');
  const r = Bun.spawnSync(['cc', '-o', probe, source], { stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`cc failed: ${r.stderr.toString()}`);
  return probe;
}

/** A PATH with bun and git and nothing else: no npm to fetch with. */
function pathWithoutNpm(): string {
  const bin = join(dir, 'bin-without-npm');
  mkdirSync(bin, { recursive: true });
  if (!existsSync(join(bin, 'bun'))) {
    symlinkSync(process.execPath, join(bin, 'bun'));
    symlinkSync(String(Bun.which('git')), join(bin, 'git'));
  }
  return bin;
}

describe.skipIf(noBaseline !== null)('the baseline binary for CPUs without AVX2', () => {
  const out = join(dir, 'baseline');
  const runtimes = join(dir, 'runtimes');
  const runtime = join(runtimes, `bun-linux-x64-baseline-v${Bun.version}`);
  const binary = join(out, 'svc-linux-x64-baseline');
  let progress = '';
  beforeAll(() => {
    const r = release(['--only', 'linux-x64-baseline', '--out', out, '--runtimes', runtimes]);
    if (r.code !== 0) throw new Error(`release failed: ${r.stderr}`);
    progress = r.stderr;
  }, 600_000);

  test("embeds the runtime of the npm registry's package of this Bun version", () => {
    expect(progress).toContain(`svc-linux-x64-baseline: embeds ${BASELINE_PKG}@${Bun.version} (${runtime})\n`);
    // the package fetched again here, apart from the release
    const pack = join(dir, 'pack');
    mkdirSync(pack);
    const packed = Bun.spawnSync(['npm', 'pack', `${BASELINE_PKG}@${Bun.version}`, '--pack-destination', pack], { stdout: 'pipe', stderr: 'pipe' });
    expect(packed.exitCode).toBe(0);
    const tarball = join(pack, packed.stdout.toString().trim().split('\n').at(-1) ?? '');
    expect(Bun.spawnSync(['tar', '-xzf', tarball, '-C', pack, 'package/bin/bun']).exitCode).toBe(0);
    expect(sha256(runtime)).toBe(sha256(join(pack, 'package/bin/bun')));
    // the compile rewrites the runtime's headers and adds svc as a section: its build ID stays
    expect(buildId(binary)).toBe(buildId(runtime));
  }, 120_000);

  test('runs here: svc --version and svc status', () => {
    const version = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version;
    const env = { PATH: '/usr/bin:/bin', HOME: dir, NO_COLOR: '1' };
    const v = Bun.spawnSync([binary, '--version'], { env, stdout: 'pipe', stderr: 'pipe' });
    expect(v.stderr.toString()).toBe('');
    expect(v.stdout.toString()).toStartWith(`svc ${version} (commit `);
    const s = Bun.spawnSync([binary, 'status', EXAMPLE], { env, stdout: 'pipe', stderr: 'pipe' });
    expect(s.stderr.toString()).toBe('');
    expect(s.exitCode).toBe(0);
    expect(s.stdout.toString()).toContain('best: node_c0ffee12 (score 0.740, gflops = 9.8)\n');
  });

  // an emulated CPU of 2010 (SSE4.2, no AVX): the one an AVX2 instruction is refused on, as the
  // first command shows
  test.skipIf(noQemu !== null)('runs on a CPU without AVX2: svc --version and svc status under qemu -cpu Westmere', () => {
    const env = { PATH: '/usr/bin:/bin', HOME: dir, NO_COLOR: '1' };
    const onWestmere = (cmd: string[]) => Bun.spawnSync(['qemu-x86_64', '-cpu', 'Westmere', ...cmd], { env, stdout: 'pipe', stderr: 'pipe' });
    expect(onWestmere([avx2Probe()]).signalCode).toBe('SIGILL');
    const v = onWestmere([binary, '--version']);
    expect(v.exitCode).toBe(0);
    expect(v.stdout.toString()).toStartWith('svc ');
    const s = onWestmere([binary, 'status', EXAMPLE]);
    expect(s.stderr.toString()).toBe('');
    expect(s.exitCode).toBe(0);
    expect(s.stdout.toString()).toContain('best: node_c0ffee12 (score 0.740, gflops = 9.8)\n');
  });

  test('a second build takes the kept runtime, with no npm on PATH, and gives the same bytes', () => {
    const again = join(dir, 'baseline-again');
    const r = release(['--only', 'linux-x64-baseline', '--out', again, '--runtimes', runtimes], { PATH: pathWithoutNpm(), HOME: process.env.HOME });
    expect(r.stderr).toContain(`svc-linux-x64-baseline: embeds ${BASELINE_PKG}@${Bun.version} (${runtime})\n`);
    expect(r.code).toBe(0);
    expect(sums(again).get('svc-linux-x64-baseline')).toBe(sums(out).get('svc-linux-x64-baseline') as string);
  }, 600_000);

  test('with no npm and no runtime kept, the release stops with the reason and writes nothing', () => {
    const bad = join(dir, 'baseline-no-npm');
    const empty = join(dir, 'no-runtimes');
    const r = release(['--only', 'linux-x64-baseline', '--out', bad, '--runtimes', empty], { PATH: pathWithoutNpm(), HOME: process.env.HOME });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('npm is not on PATH: the Bun runtime a release target embeds is fetched with npm and unpacked with tar\n');
    expect(existsSync(bad)).toBe(false);
    expect(existsSync(empty)).toBe(false);
  });
});
