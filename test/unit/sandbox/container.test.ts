import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError, UnavailableError } from '../../../src/core/errors.ts';
import { parseWorkflow } from '../../../src/core/config/workflow.ts';
import { chooseRuntime, containerCommand, podmanUlimits, pullCommand, runtimeFromProbes, sifName } from '../../../src/sandbox/container.ts';
import { probeRuntime, RUNTIMES } from '../../../src/sandbox/detect.ts';
import { ensureContainerRuntime, pathWith, removePathDirs } from '../../support/container.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const path = (names: string[]): string => pathWith(names);
afterAll(removePathDirs);

describe('containerCommand', () => {
  const base = { image: 'bench-env', workDir: '/w/run 1', command: 'python train.py > out.txt' };

  test('docker: a throw-away container without network, the work dir mounted and current', () => {
    expect(containerCommand({ ...base, runtime: 'docker' })).toEqual(['docker', 'run', '--rm', '--init', '--network', 'none', '-v', '/w/run 1:/w/run 1', '-w', '/w/run 1', 'bench-env:latest', 'bash', '-lc', 'python train.py > out.txt']);
  });

  test('docker with GPU, binds and environment', () => {
    expect(containerCommand({ ...base, runtime: 'docker', binary: '/usr/bin/docker', gpu: true, binds: ['/data'], env: { A: '1' } })).toEqual([
      '/usr/bin/docker', 'run', '--rm', '--init', '--network', 'none', '-v', '/w/run 1:/w/run 1', '-v', '/data:/data', '-w', '/w/run 1', '-e', 'A=1', '--gpus', 'all', 'bench-env:latest', 'bash', '-lc', 'python train.py > out.txt',
    ]);
  });

  test('a pull policy at each command: always pulls first, never fetches nothing; apptainer has no such switch', () => {
    expect(containerCommand({ ...base, runtime: 'docker', pull: 'never' }).slice(0, 7)).toEqual(['docker', 'run', '--rm', '--init', '--network', 'none', '--pull']);
    expect(containerCommand({ ...base, runtime: 'podman', pull: 'always' })).toContain('always');
    expect(containerCommand({ ...base, runtime: 'apptainer', pull: 'never' })).not.toContain('--pull');
  });

  test('podman takes the ulimit flags; docker ignores them', () => {
    const ulimits = ['--ulimit', 'nofile=1024:1024'];
    expect(containerCommand({ ...base, runtime: 'podman', ulimits })).toEqual(['podman', 'run', '--rm', '--init', '--network', 'none', '-v', '/w/run 1:/w/run 1', '-w', '/w/run 1', '--ulimit', 'nofile=1024:1024', 'bench-env:latest', 'bash', '-lc', 'python train.py > out.txt']);
    expect(containerCommand({ ...base, runtime: 'docker', ulimits })).not.toContain('--ulimit');
  });

  test('docker and podman: the network only when the workflow allows it, GPUs only when asked', () => {
    for (const runtime of ['docker', 'podman'] as const) {
      const argv = containerCommand({ ...base, runtime, network: true, gpu: true });
      expect(argv).not.toContain('--network');
      expect(argv.slice(-6, -4)).toEqual(['--gpus', 'all']);
      expect(containerCommand({ ...base, runtime, network: false }).slice(3, 6)).toEqual(['--init', '--network', 'none']);
      expect(containerCommand({ ...base, runtime })).not.toContain('--gpus');
    }
  });

  test('apptainer and singularity share the host network: the network switch changes nothing', () => {
    expect(containerCommand({ ...base, runtime: 'apptainer', network: false })).toEqual(containerCommand({ ...base, runtime: 'apptainer', network: true }));
  });

  test('apptainer and singularity: exec with bind paths and --nv for GPUs', () => {
    for (const runtime of ['apptainer', 'singularity'] as const) {
      expect(containerCommand({ ...base, runtime, image: '/img/env.sif', gpu: true, binds: ['/data'] })).toEqual([
        runtime, 'exec', '--bind', '/w/run 1:/w/run 1', '--bind', '/data:/data', '--pwd', '/w/run 1', '--nv', '/img/env.sif', 'bash', '-lc', 'python train.py > out.txt',
      ]);
    }
    expect(containerCommand({ ...base, runtime: 'apptainer' })).not.toContain('--nv');
  });
});

describe('image references', () => {
  test('one that reads as an option or holds a control character is refused by pull and run alike', () => {
    for (const image of ['--help', '-v', 'ubuntu\n--privileged', '']) {
      expect(() => pullCommand('docker', image, '/c/x.sif')).toThrow(/is not an image reference/);
      expect(() => pullCommand('apptainer', image, '/c/x.sif')).toThrow(/is not an image reference/);
      expect(() => containerCommand({ runtime: 'docker', image, workDir: '/w', command: 'true' })).toThrow(/is not an image reference/);
    }
  });
});

describe('podmanUlimits', () => {
  const limits = (nofile: string, nproc: string) =>
    `Limit                     Soft Limit           Hard Limit           Units\nMax processes             ${nproc}                ${nproc}                processes\nMax open files            1024                 ${nofile}                files\n`;

  test('a host hard limit below podman default pins nofile and nproc to the host limits', () => {
    expect(podmanUlimits(limits('20000', '63000'), 4_194_304)).toEqual(['--ulimit', 'nofile=20000:20000', '--ulimit', 'nproc=63000:63000']);
  });

  test("nproc no higher than the kernel's pid_max, to which podman lowers its own limit", () => {
    expect(podmanUlimits(limits('20000', '96364'), 32_768)).toEqual(['--ulimit', 'nofile=20000:20000', '--ulimit', 'nproc=32768:32768']);
    expect(podmanUlimits(limits('20000', 'unlimited'), 32_768)).toEqual(['--ulimit', 'nofile=20000:20000', '--ulimit', 'nproc=32768:32768']);
    expect(podmanUlimits(limits('20000', 'unlimited'), null)).toEqual(['--ulimit', 'nofile=20000:20000']);
  });

  test('no flags when the host allows podman default', () => {
    expect(podmanUlimits(limits('1048576', '63000'), 32_768)).toEqual([]);
    expect(podmanUlimits(limits('unlimited', 'unlimited'), 32_768)).toEqual([]);
  });

  test('no flags without /proc to read the limits from (macOS, where podman runs a Linux VM)', () => {
    expect(podmanUlimits(null, null)).toEqual([]);
  });

  test("reads this process's limits and the kernel's pid_max by default", () => {
    const own = readFileSync('/proc/self/limits', 'utf8');
    const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
    expect(podmanUlimits()).toEqual(podmanUlimits(own, pidMax));
  });
});

describe('mode and pull policy', () => {
  test('values outside the lists are refused with the list', () => {
    const container = (block: string) => parseWorkflow(`container: ${block}\n`, '/w/workflow.yaml', {}).container;
    expect(container('{mode: podman, pull: never}')).toMatchObject({ mode: 'podman', pull: 'never' });
    expect(() => container('{mode: kubernetes}')).toThrow(InputError);
    expect(() => container('{mode: kubernetes}')).toThrow('container.mode: must be one of auto, docker, podman, singularity, apptainer, none');
    expect(() => container('{pull: sometimes}')).toThrow(InputError);
  });

  test('pull commands per runtime', () => {
    expect(pullCommand('docker', 'bench-env', '/c/x.sif')).toEqual(['docker', 'pull', 'bench-env:latest']);
    expect(pullCommand('podman', 'ubuntu:24.04', '/c/x.sif')).toEqual(['podman', 'pull', 'ubuntu:24.04']);
    expect(pullCommand('apptainer', 'ubuntu:24.04', '/c/u.sif')).toEqual(['apptainer', 'pull', '--force', '/c/u.sif', 'docker://ubuntu:24.04']);
    expect(pullCommand('singularity', 'library://a/b/c:1', '/c/c.sif', '/opt/bin/singularity')).toEqual(['/opt/bin/singularity', 'pull', '--force', '/c/c.sif', 'library://a/b/c:1']);
  });

  test('sif names carry no path separators', () => {
    expect(sifName('bench-env')).toBe('bench-env_latest.sif');
    expect(sifName('docker://ghcr.io/a/b:1')).toBe('ghcr.io_a_b_1.sif');
    expect(sifName('../../etc/passwd')).toBe('.._.._etc_passwd.sif');
    expect(sifName('../../etc/passwd')).not.toContain('/');
  });
});

describe('runtimeFromProbes', () => {
  test('the choice chooseRuntime makes, from probes taken once: auto in order, a named one or why not, none', async () => {
    const env = { PATH: path(['apptainer', 'singularity']) };
    const probes = await Promise.all(RUNTIMES.map((r) => probeRuntime(r, env)));
    expect(runtimeFromProbes('auto', probes)?.runtime).toBe('apptainer');
    expect(runtimeFromProbes('singularity', probes)?.probe.version).toBe('singularity version 9');
    expect(runtimeFromProbes('none', probes)).toBeNull();
    expect(() => runtimeFromProbes('podman', probes)).toThrow('container.mode is podman but podman is not installed');
    // a runtime not probed counts as not installed
    expect(() => runtimeFromProbes('apptainer', [])).toThrow('container.mode is apptainer but apptainer is not installed');
    expect(runtimeFromProbes('auto', [])).toBeNull();
  });
});

describe('chooseRuntime', () => {
  test('none never runs a container', async () => {
    expect(await chooseRuntime('none', { PATH: path(['docker', 'podman', 'apptainer']) })).toBeNull();
  });

  test('auto prefers podman, then apptainer, then singularity when there is no docker', async () => {
    expect((await chooseRuntime('auto', { PATH: path(['podman', 'apptainer', 'singularity']) }))?.runtime).toBe('podman');
    expect((await chooseRuntime('auto', { PATH: path(['apptainer', 'singularity']) }))?.runtime).toBe('apptainer');
    expect((await chooseRuntime('auto', { PATH: path(['singularity']) }))?.runtime).toBe('singularity');
    expect(await chooseRuntime('auto', { PATH: path([]) })).toBeNull();
  });

  const docker = Bun.which('docker');
  test.skipIf(docker === null)('auto passes over a docker whose daemon is unreachable', async () => {
    const dir = path(['podman']);
    symlinkSync(docker!, join(dir, 'docker'));
    const env = { PATH: dir, DOCKER_HOST: `unix://${join(dir, 'no.sock')}` };
    expect((await chooseRuntime('auto', env))?.runtime).toBe('podman');
    const err = await chooseRuntime('docker', env).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as Error).message).toStartWith('container.mode is docker but the docker daemon is not reachable');
    // the same choice from probes already taken
    const probes = await Promise.all(RUNTIMES.map((r) => probeRuntime(r, env)));
    expect(runtimeFromProbes('auto', probes)?.runtime).toBe('podman');
    expect(() => runtimeFromProbes('docker', probes)).toThrow('container.mode is docker but the docker daemon is not reachable');
  });

  test('an explicit runtime that is missing is a one-line error', async () => {
    const err = await chooseRuntime('apptainer', { PATH: path(['singularity']) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as Error).message).toBe('container.mode is apptainer but apptainer is not installed');
    expect((await chooseRuntime('singularity', { PATH: path(['singularity']) }))?.probe.version).toBe('singularity version 9');
  });
});

const runtime = await ensureContainerRuntime();
if ('reason' in runtime) console.error(`real container tests skipped: ${runtime.reason}`);
const real = 'reason' in runtime ? null : runtime;

describe('a real container', () => {
  test.skipIf(real === null)('writes into the mounted work dir and has no network', async () => {
    const rt = real!;
    const work = tempDir();
    expect((await chooseRuntime('auto', process.env))?.runtime).toBe(rt.runtime);
    const argv = containerCommand({ runtime: rt.runtime, binary: rt.binary, image: rt.image, workDir: work, command: 'echo "in $(pwd)" > out.txt; ls /sys/class/net > nets.txt' });
    const p = Bun.spawn(argv, { stdout: 'pipe', stderr: 'pipe' });
    const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(readFileSync(join(work, 'out.txt'), 'utf8')).toBe(`in ${work}\n`);
    expect(readFileSync(join(work, 'nets.txt'), 'utf8').trim()).toBe('lo');
    removeDir(work);
  });

  test.skipIf(real === null)('the command exit code comes through', async () => {
    const rt = real!;
    const p = Bun.spawn(containerCommand({ runtime: rt.runtime, binary: rt.binary, image: rt.image, workDir: tmpdir(), command: 'exit 7' }), { stdout: 'ignore', stderr: 'ignore' });
    expect(await p.exited).toBe(7);
  });
});
