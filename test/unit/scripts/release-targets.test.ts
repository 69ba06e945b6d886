import { expect, test } from 'bun:test';
import { RELEASE_TARGETS, registryRuntime } from '../../../scripts/release-targets.ts';

const runtimes = (platform: string, arch: string) => RELEASE_TARGETS.map((t) => [t.name, registryRuntime(t, { platform, arch })]);

test('on an x64 Linux, the baseline target takes its runtime from the npm registry, every other from Bun', () => {
  expect(runtimes('linux', 'x64')).toEqual([
    ['linux-x64', null],
    ['linux-x64-musl', null],
    ['linux-x64-baseline', '@oven/bun-linux-x64-baseline'],
    ['linux-arm64', null],
    ['darwin-x64', null],
    ['darwin-arm64', null],
  ]);
});

test('on hosts of another OS or CPU, Bun fetches every runtime itself', () => {
  for (const [platform, arch] of [['linux', 'arm64'], ['darwin', 'x64'], ['darwin', 'arm64']] as const) {
    expect(runtimes(platform, arch).filter(([, pkg]) => pkg !== null)).toEqual([]);
  }
});
