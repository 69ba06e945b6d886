/** The platforms svc is released for: `dist/release/svc-<name>`, compiled for Bun's `target`. */
export const RELEASE_TARGETS = [
  { name: 'linux-x64', target: 'bun-linux-x64' },
  { name: 'linux-x64-musl', target: 'bun-linux-x64-musl' },
  // CPUs without AVX2
  { name: 'linux-x64-baseline', target: 'bun-linux-x64-baseline' },
  { name: 'linux-arm64', target: 'bun-linux-arm64' },
  { name: 'darwin-x64', target: 'bun-darwin-x64' },
  { name: 'darwin-arm64', target: 'bun-darwin-arm64' },
] as const satisfies readonly { name: string; target: Bun.Build.CompileTarget }[];

export type ReleaseTarget = (typeof RELEASE_TARGETS)[number];

/**
 * Whether a target's binary runs on this machine as it is, so its start can be recorded for the
 * bytecode order: a glibc x64 Linux runs the x64 and baseline builds; the musl one needs a musl
 * libstdc++ that a glibc system lacks.
 */
export function runsHere(t: ReleaseTarget): boolean {
  return process.platform === 'linux' && process.arch === 'x64' && (t.name === 'linux-x64' || t.name === 'linux-x64-baseline');
}

/**
 * The npm package of the Bun runtime `t` must embed when Bun's own choice would be wrong, else
 * null (Bun fetches the right one itself). For a target of the host's OS and CPU, Bun's compile
 * embeds the running executable (on x64, the build the `bun` package chose for this CPU) even
 * when the target is the baseline build for CPUs without AVX2.
 */
export function registryRuntime(t: ReleaseTarget, host: { platform: string; arch: string } = process): string | null {
  const [, os, arch, ...variant] = t.target.split('-');
  return os === host.platform && arch === host.arch && variant.includes('baseline') ? `@oven/${t.target}` : null;
}
