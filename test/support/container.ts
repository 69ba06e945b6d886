import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { nodeCommand } from '../../src/sandbox/node-command.ts';

/** A tiny image built from this machine's busybox, enough for `bash -lc` and file writes. */
export const TEST_IMAGE = 'svc-test-busybox:latest';
/** TEST_IMAGE with this machine's `node` in it: the demo's programs run there. */
export const NODE_TEST_IMAGE = 'svc-test-node:latest';

export type TestRuntime = { runtime: 'docker' | 'podman'; binary: string; image: string };
type Found = TestRuntime | { reason: string };

let cached: Promise<Found> | undefined;
const byRuntime = new Map<TestRuntime['runtime'], Promise<Found>>();

/**
 * A container runtime that can run TEST_IMAGE here, or the reason there is none: docker (its
 * daemon started here when it is not running), else podman. Nothing is installed: CI installs
 * docker.io, podman and busybox first (scripts/test-setup.sh).
 */
export function ensureContainerRuntime(): Promise<Found> {
  cached ??= (async () => {
    const docker = await ensureRuntime('docker');
    if (!('reason' in docker)) return docker;
    const podman = await ensureRuntime('podman');
    return 'reason' in podman ? docker : podman;
  })();
  return cached;
}

/**
 * One runtime able to run TEST_IMAGE here, or why it cannot: docker uses a reachable daemon, else
 * starts `dockerd` by hand when it is installed and we are root (the daemon keeps running for later
 * tests); podman must run a container with the flags node commands use. TEST_IMAGE is imported
 * from a busybox rootfs once.
 */
export function ensureRuntime(runtime: TestRuntime['runtime']): Promise<Found> {
  let found = byRuntime.get(runtime);
  if (found === undefined) {
    found = withTestImage(runtime === 'docker' ? dockerUp() : podmanUp());
    byRuntime.set(runtime, found);
  }
  return found;
}

async function withTestImage(up: Promise<Omit<TestRuntime, 'image'> | { reason: string }>): Promise<Found> {
  const runtime = await up;
  if ('reason' in runtime) return runtime;
  if (Bun.which('busybox') === null) return { reason: 'busybox is not installed (apt-get install busybox) to build the test image' };
  if ((await run([runtime.binary, 'image', 'inspect', TEST_IMAGE])).code !== 0) {
    const made = await importBusyboxImage(runtime.binary, TEST_IMAGE, []);
    if (made !== null) return { reason: made };
  }
  if (runtime.runtime === 'podman') {
    const probe = await run(nodeCommand(['true'], tmpdir(), { container: { ...runtime, image: TEST_IMAGE, pull: 'never' } }));
    if (probe.code !== 0) return { reason: `podman cannot run a container here: ${probe.stderr.trim().split('\n').at(-1) ?? `exit ${probe.code}`}` };
  }
  return { ...runtime, image: TEST_IMAGE };
}

let withNode: Promise<Found> | undefined;

/** Like ensureContainerRuntime, with NODE_TEST_IMAGE (imported once) as the image. */
export function ensureNodeImage(): Promise<Found> {
  withNode ??= (async () => {
    const runtime = await ensureContainerRuntime();
    if ('reason' in runtime) return runtime;
    const node = Bun.which('node');
    if (node === null) return { reason: 'node is not installed here to build the test image with it' };
    if ((await run([runtime.binary, 'image', 'inspect', NODE_TEST_IMAGE])).code !== 0) {
      const made = await importBusyboxImage(runtime.binary, NODE_TEST_IMAGE, [node]);
      if (made !== null) return { reason: made };
    }
    return { ...runtime, image: NODE_TEST_IMAGE };
  })();
  return withNode;
}

async function dockerUp(): Promise<Omit<TestRuntime, 'image'> | { reason: string }> {
  const docker = Bun.which('docker');
  if (docker === null) return { reason: 'no docker here (apt-get install docker.io busybox)' };
  if (await daemonUp(docker)) return { runtime: 'docker', binary: docker };
  const dockerd = Bun.which('dockerd');
  if (dockerd === null || process.getuid?.() !== 0) return { reason: 'the docker daemon is not running and dockerd cannot be started here' };
  Bun.spawn([dockerd], { stdin: 'ignore', stdout: 'ignore', stderr: Bun.file(join(tmpdir(), 'svc-test-dockerd.log')), detached: true }).unref();
  for (let i = 0; i < 100; i++) {
    if (await daemonUp(docker)) return { runtime: 'docker', binary: docker };
    await Bun.sleep(100);
  }
  return { reason: 'dockerd was started but did not answer docker info within 10 s' };
}

async function podmanUp(): Promise<Omit<TestRuntime, 'image'> | { reason: string }> {
  const podman = Bun.which('podman');
  return podman === null ? { reason: 'no podman here (apt-get install podman catatonit)' } : { runtime: 'podman', binary: podman };
}

async function daemonUp(docker: string): Promise<boolean> {
  const r = await run([docker, 'info', '--format', '{{.ServerVersion}}']);
  return r.code === 0 && r.stdout.trim() !== '';
}

/**
 * Imports `tag`: busybox with its applets as hard links, the `programs` given (into /bin), the
 * shared libraries they all need, and a `bash` that hands over to busybox sh (busybox has no bash
 * applet). Null on success, else why.
 */
async function importBusyboxImage(binary: string, tag: string, programs: string[]): Promise<string | null> {
  const root = mkdtempSync(join(tmpdir(), 'svc-busybox-'));
  try {
    const busybox = Bun.which('busybox') as string;
    mkdirSync(join(root, 'bin'));
    mkdirSync(join(root, 'tmp'));
    cpSync(busybox, join(root, 'bin/busybox'));
    const install = await run([join(root, 'bin/busybox'), '--install', join(root, 'bin')]);
    if (install.code !== 0) return `busybox --install failed: ${install.stderr.trim()}`;
    for (const program of [busybox, ...programs]) {
      if (program !== busybox) cpSync(program, join(root, 'bin', basename(program)), { dereference: true });
      const ldd = await run(['ldd', program]);
      for (const lib of ldd.stdout.match(/\/\S+/g) ?? []) {
        mkdirSync(join(root, dirname(lib)), { recursive: true });
        cpSync(lib, join(root, lib), { dereference: true });
      }
    }
    writeFileSync(join(root, 'bin/bash'), '#!/bin/sh\nexec /bin/sh "$@"\n', { mode: 0o755 });
    const tar = Bun.spawn(['tar', '-C', root, '-c', '.'], { stdout: 'pipe', stderr: 'ignore' });
    const imp = Bun.spawn([binary, 'import', '--change', 'ENV PATH=/bin', '-', tag], { stdin: tar.stdout, stdout: 'ignore', stderr: 'pipe' });
    const [code, err] = await Promise.all([imp.exited, new Response(imp.stderr).text()]);
    return code === 0 ? null : `${binary} import failed: ${err.trim()}`;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function run(cmd: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const p = Bun.spawn(cmd, { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

/** What a stand-in program does when run: print a version line, as `<program> --version` would. */
export const PRINTS_VERSION = 'echo "${0##*/} version 9"';

const pathDirs: string[] = [];

/**
 * A directory with stand-in programs that exist only to be found on PATH (detection of presence);
 * removePathDirs deletes every one made so far.
 */
export function pathWith(names: string[], body = PRINTS_VERSION): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-path-'));
  pathDirs.push(dir);
  for (const name of names) writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return dir;
}

export function removePathDirs(): void {
  for (const d of pathDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}
