import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { removeDir, tempDir } from '../support/svc.ts';

// The musl executable run in a root filesystem without glibc: musl's loader (Debian's musl), the
// C++ runtime Bun links (Debian has no musl build of libstdc++ and libgcc_s: its glibc builds, with
// the few glibc symbols they reference from test/support/musl/glibc-symbols.c), the device files
// every Linux has (a child's closed stdin is /dev/null), and svc. No node, shell or LaTeX.

const repo = resolve(import.meta.dir, '..', '..');
const MUSL_LOADER = '/lib/ld-musl-x86_64.so.1';
const CXX_LIBS = ['/usr/lib/x86_64-linux-gnu/libstdc++.so.6', '/usr/lib/x86_64-linux-gnu/libgcc_s.so.1'];
const EXAMPLE = join(repo, 'examples/workspace/checkpoints/20261101093000_cache_blocked_matmul');
/** The memory devices (major 1) and their minor numbers. */
const DEVICES = [['null', 3], ['zero', 5], ['random', 8], ['urandom', 9]] as const;

function missing(): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64') return 'not an x64 Linux';
  if (process.getuid?.() !== 0) return 'chroot needs root';
  if (!existsSync(MUSL_LOADER)) return `no ${MUSL_LOADER} (apt-get install musl)`;
  if (!Bun.which('musl-gcc')) return 'no musl-gcc (apt-get install musl-tools)';
  if (!Bun.which('unshare') || !Bun.which('chroot')) return 'no unshare or chroot';
  const lib = CXX_LIBS.find((l) => !existsSync(l));
  return lib ? `no ${lib}` : null;
}

const why = missing();
if (why) console.error(`release-musl: skipped: ${why}`);

const dir = tempDir('svc-musl-');
const root = join(dir, 'root');
afterAll(() => removeDir(dir));

/** svc run in the root filesystem, with a /proc of its own as every Linux has (paths are resolved through it). */
function inRoot(args: string[]) {
  const env = { PATH: '/', HOME: '/home', NO_COLOR: '1', SVC_ROOT: '/home' };
  const cmd = [String(Bun.which('unshare')), '--mount', '--pid', '--fork', `--mount-proc=${join(root, 'proc')}`, String(Bun.which('chroot')), root, '/svc', ...args];
  const r = Bun.spawnSync(cmd, { env, stdout: 'pipe', stderr: 'pipe' });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

describe.skipIf(why !== null)('the musl executable without glibc', () => {
  beforeAll(() => {
    const out = join(dir, 'release');
    const build = Bun.spawnSync(['bun', 'run', 'scripts/release.ts', '--only', 'linux-x64-musl', '--out', out], { cwd: repo, stdout: 'pipe', stderr: 'pipe' });
    if (build.exitCode !== 0) throw new Error(`the musl build failed: ${build.stderr.toString()}`);
    mkdirSync(join(root, 'lib'), { recursive: true });
    mkdirSync(join(root, 'home'));
    mkdirSync(join(root, 'tmp'));
    mkdirSync(join(root, 'proc'));
    mkdirSync(join(root, 'dev'));
    for (const [name, minor] of DEVICES) {
      const made = Bun.spawnSync(['mknod', '-m', '666', join(root, 'dev', name), 'c', '1', String(minor)], { stderr: 'pipe' });
      if (made.exitCode !== 0) throw new Error(`mknod failed: ${made.stderr.toString()}`);
    }
    copyFileSync(MUSL_LOADER, join(root, MUSL_LOADER));
    for (const lib of CXX_LIBS) copyFileSync(lib, join(root, 'lib', lib.split('/').pop() ?? ''));
    // the name libstdc++ asks its glibc symbols from; musl resolves libc.so.6 and libm.so.6 to itself
    const shim = Bun.spawnSync(['musl-gcc', '-shared', '-fPIC', '-O2', '-o', join(root, 'lib', 'ld-linux-x86-64.so.2'), join(repo, 'test/support/musl/glibc-symbols.c')], { stderr: 'pipe' });
    if (shim.exitCode !== 0) throw new Error(`musl-gcc failed: ${shim.stderr.toString()}`);
    copyFileSync(join(out, 'svc-linux-x64-musl'), join(root, 'svc'));
    cpSync(EXAMPLE, join(root, 'home', 'example'), { recursive: true });
    cpSync(join(repo, 'examples/demo'), join(root, 'home', 'demo'), { recursive: true });
  }, 300_000);

  test('the root filesystem holds no glibc: only musl and the C++ runtime', () => {
    expect(readdirSync(root).sort()).toEqual(['dev', 'home', 'lib', 'proc', 'svc', 'tmp']);
    expect(readdirSync(join(root, 'dev')).sort()).toEqual(['null', 'random', 'urandom', 'zero']);
    expect(readdirSync(join(root, 'lib')).sort()).toEqual(['ld-linux-x86-64.so.2', 'ld-musl-x86_64.so.1', 'libgcc_s.so.1', 'libstdc++.so.6']);
    // the executable asks for musl's loader
    expect(readFileSync(join(root, 'svc')).subarray(0, 4096).toString('latin1')).toContain(MUSL_LOADER);
  });

  test('svc --version', () => {
    const version = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version;
    const r = inRoot(['--version']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith(`svc ${version}`);
  });

  test('svc status on a checkpoint draws its tree and best node', () => {
    const r = inRoot(['status', '/home/example']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('nodes: 7 total, 6 success, 1 failed, 0 running, 0 pending\n');
    expect(r.stdout).toContain('best: node_c0ffee12 (score 0.740, gflops = 9.8)\n');
  });

  // The whole demo but its paper: the nodes' JavaScript runs on svc's own runtime (there is no
  // node), and the paper stage says what to install, since Debian builds TeX Live for glibc only.
  test('the offline demo: the search and the pipeline up to the paper', () => {
    const r = inRoot(['run', '/home/demo/experiment.md', '--replay', '/home/demo/cassette.jsonl']);
    expect(r.stderr).toMatch(/^svc: memory: served by this run at http:\/\/127\.0\.0\.1:\d+/m);
    expect(r.stderr).toContain('svc: ideas: 3, first: Geometric gap ratio for Shell sort');
    expect(r.stderr).not.toContain('replay diverged');
    expect(r.stdout).toContain('nodes: 5 (5 success, 0 failed)\n');
    // the measured numbers of the recorded run, so the programs ran and gave the same counts
    expect(r.stdout).toContain('best: node_e3ab948b (score 0.833; comparisons = 30850, moves = 14578, passes = 10)\n');
    expect(r.stderr).toContain('svc: transform_data: done');
    expect(r.stderr).toContain('svc: generate_figures: done');
    expect(r.stderr).toContain('svc: ear_publish: done');
    expect(r.stderr).toContain('svc: write_paper: failed (latexmk is not installed (not found on PATH) (install it:');
    expect(r.stdout).toContain('post-search pipeline: 8 done, 15 skipped, 1 failed\n');
    expect(r.code).toBe(0);
  }, 300_000);
});
