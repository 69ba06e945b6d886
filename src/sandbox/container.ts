import type { Env } from '../core/config/env-vars.ts';
import { UnavailableError } from '../core/errors.ts';
import { readTextOrNull } from '../core/paths.ts';
import { probeRuntime, RUNTIMES, type Runtime, type RuntimeProbe, usable } from './detect.ts';
import { resolveImage, runnableImage } from './image.ts';

/** The workflow's container.mode and container.pull, which its schema checks. */
export type ContainerMode = 'auto' | 'docker' | 'podman' | 'singularity' | 'apptainer' | 'none';
export type PullPolicy = 'always' | 'on_start' | 'never';

/** One command to run in a container, with the work directory mounted at the same path inside. */
export type ContainerRun = {
  runtime: Runtime;
  /** the runtime's program; its name when not given */
  binary?: string;
  image: string;
  workDir: string;
  /** a shell command, run with `bash -lc` so the image's login profile (conda, modules) applies */
  command: string;
  /** every GPU of the host: docker and podman `--gpus all`, apptainer and singularity `--nv` */
  gpu?: boolean;
  /** docker and podman: the container gets a network (otherwise only its loopback); apptainer and singularity always share the host's */
  network?: boolean;
  /** more host paths mounted at the same path inside */
  binds?: string[];
  env?: Record<string, string>;
  /** docker and podman: variables the container takes from the client's environment by name (`-e NAME`), so a secret's value is never on a command line; apptainer and singularity pass the host's environment anyway */
  passEnv?: string[];
  /** podman only: flags that keep the container within this host's resource limits (podmanUlimits) */
  ulimits?: string[];
  /** docker and podman: pull the image first (`always`), or never fetch it at run time (`never`); their own default otherwise */
  pull?: 'always' | 'never';
  /** docker and podman: the container's name, by which it is removed should its client be killed */
  name?: string;
};

/**
 * The argv that runs `run.command` in a container. docker and podman: a throw-away container,
 * without network unless `run.network`; apptainer and singularity: `exec` with bind mounts (GPU
 * through `--nv`).
 */
export function containerCommand(run: ContainerRun): string[] {
  const bin = run.binary ?? run.runtime;
  const image = runnableImage(run.image);
  const mounts = [run.workDir, ...(run.binds ?? [])];
  const envPairs = Object.entries(run.env ?? {}).map(([k, v]) => `${k}=${v}`);
  const shell = ['bash', '-lc', run.command];
  if (run.runtime === 'docker' || run.runtime === 'podman') {
    return [
      bin, 'run', '--rm',
      // an init (docker's own, podman's catatonit): a stop of the command (a timeout) reaches it, and
      // the container goes with it; the command as the container's first process would ignore it
      '--init',
      ...(run.name ? ['--name', run.name] : []),
      ...(run.network ? [] : ['--network', 'none']),
      ...(run.pull ? ['--pull', run.pull] : []),
      ...mounts.flatMap((p) => ['-v', `${p}:${p}`]),
      '-w', run.workDir,
      ...envPairs.flatMap((e) => ['-e', e]),
      ...(run.passEnv ?? []).flatMap((name) => ['-e', name]),
      ...(run.runtime === 'podman' ? (run.ulimits ?? []) : []),
      ...(run.gpu ? ['--gpus', 'all'] : []),
      image, ...shell,
    ];
  }
  return [
    bin, 'exec',
    ...mounts.flatMap((p) => ['--bind', `${p}:${p}`]),
    '--pwd', run.workDir,
    ...envPairs.flatMap((e) => ['--env', e]),
    ...(run.gpu ? ['--nv'] : []),
    image, ...shell,
  ];
}

/** podman's default limits (nofile 1048576) fail where the host's hard limit is lower and CAP_SYS_RESOURCE is missing. */
const PODMAN_DEFAULT_NOFILE = 1_048_576;

/**
 * The `--ulimit` flags podman needs on this host: none when the hard open-files limit reaches
 * podman's default, else nofile pinned to this host's hard limit, which a process may always set,
 * and nproc to its hard limit or the kernel's pid_max, whichever is lower: podman lowers its own
 * process limit to pid_max, and cannot give a container more than it has. Without /proc (macOS,
 * where podman runs its containers in a Linux VM with its own limits) there is nothing to pin.
 */
export function podmanUlimits(limitsText: string | null = readTextOrNull('/proc/self/limits'), pidMax: number | null = readPidMax()): string[] {
  if (limitsText === null) return [];
  const hard = (label: string): string | null => {
    const m = new RegExp(`^${label}\\s+\\S+\\s+(\\S+)`, 'm').exec(limitsText);
    return m?.[1] ?? null;
  };
  const nofile = hard('Max open files');
  if (nofile === null || nofile === 'unlimited' || Number(nofile) >= PODMAN_DEFAULT_NOFILE) return [];
  const hostNproc = hard('Max processes');
  const nproc = Math.min(hostNproc === null || hostNproc === 'unlimited' ? Infinity : Number(hostNproc), pidMax ?? Infinity);
  return ['--ulimit', `nofile=${nofile}:${nofile}`, ...(Number.isFinite(nproc) ? ['--ulimit', `nproc=${nproc}:${nproc}`] : [])];
}

function readPidMax(): number | null {
  return Number.parseInt(readTextOrNull('/proc/sys/kernel/pid_max') ?? '', 10) || null;
}

export type ChosenRuntime = { runtime: Runtime; path: string; probe: RuntimeProbe };

/**
 * The runtime `container.mode` selects here. auto: the first usable of docker (with a reachable
 * daemon), podman, apptainer, singularity, or null when none is; none: null; a named runtime:
 * that one, or UnavailableError saying why it cannot run.
 */
export async function chooseRuntime(mode: ContainerMode, env: Env): Promise<ChosenRuntime | null> {
  if (mode === 'none') return null;
  if (mode !== 'auto') return runtimeFromProbes(mode, [await probeRuntime(mode, env)]);
  // probed one at a time: the first usable one ends the search
  for (const runtime of RUNTIMES) {
    const chosen = runtimeFromProbes('auto', [await probeRuntime(runtime, env)]);
    if (chosen !== null) return chosen;
  }
  return null;
}

/** chooseRuntime's choice from probes already taken (a runtime not among them counts as not installed). */
export function runtimeFromProbes(mode: ContainerMode, probes: readonly RuntimeProbe[]): ChosenRuntime | null {
  if (mode === 'none') return null;
  if (mode === 'auto') {
    const probe = RUNTIMES.map((r) => probes.find((p) => p.runtime === r)).find((p) => p !== undefined && usable(p) && p.path !== undefined);
    return probe ? { runtime: probe.runtime, path: probe.path as string, probe } : null;
  }
  const probe = probes.find((p) => p.runtime === mode);
  if (!probe?.found || !probe.path) throw new UnavailableError(`container.mode is ${mode} but ${mode} is not installed`, 'install it or set container.mode to auto or none');
  if (!usable(probe)) {
    const what = mode === 'docker' ? 'the docker daemon is not reachable' : `${mode} does not answer`;
    throw new UnavailableError(`container.mode is ${mode} but ${what}: ${probe.error ?? 'no answer'}`, `${mode === 'docker' ? 'start dockerd' : `check that ${mode} --version runs`}, or set container.mode to auto or none`);
  }
  return { runtime: mode, path: probe.path, probe };
}

/**
 * The argv that fetches `image`. docker and podman pull into their own store; apptainer and
 * singularity write a .sif file to `sifPath` (a bare name is taken from Docker Hub).
 */
export function pullCommand(runtime: Runtime, image: string, sifPath: string, binary: string = runtime): string[] {
  const ref = runnableImage(image);
  if (runtime === 'docker' || runtime === 'podman') return [binary, 'pull', ref];
  const uri = /^[a-z]+:\/\//.test(ref) ? ref : `docker://${ref}`;
  return [binary, 'pull', '--force', sifPath, uri];
}

/** The .sif file name an image is cached under: its reference with every unsafe character replaced. */
export function sifName(image: string): string {
  const ref = resolveImage(image).replace(/^[a-z]+:\/\//, '');
  return `${ref.replace(/[^\w.-]+/g, '_')}.sif`;
}
