import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { removeDir, tempDir } from '../support/svc.ts';

// npm run release for the platforms that do not run here, checked for format with `file`; one of
// them built twice to show the build is reproducible.

const repo = resolve(import.meta.dir, '..', '..');
const dir = tempDir('svc-release-');
afterAll(() => removeDir(dir));

function release(args: string[]) {
  const r = Bun.spawnSync(['bun', 'run', 'scripts/release.ts', ...args], { cwd: repo, stdout: 'pipe', stderr: 'pipe' });
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
