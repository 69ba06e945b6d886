import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { registryRuntimePath } from '../../../scripts/release-runtime.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const dir = tempDir('svc-runtime-');
afterAll(() => removeDir(dir));

const noNpm = Bun.which('npm') ? null : 'no npm';
if (noNpm) console.error(`release-runtime: skipped: ${noNpm}`);

/**
 * A stand-in npm on PATH whose registry says `integrity` and whose `npm pack` writes a tarball
 * with a package/bin/bun of other bytes, as a tampered download would.
 */
function tamperedNpm(integrity: string): string {
  const bin = join(dir, 'tampered-bin');
  mkdirSync(bin);
  const script = `#!/bin/sh
case "$1" in
  view) echo '"${integrity}"' ;;
  pack) mkdir -p "$5/package/bin" && echo not-bun > "$5/package/bin/bun" && tar -czf "$5/p.tgz" -C "$5" package && rm -r "$5/package" && echo '[{"filename":"p.tgz"}]' ;;
esac
`;
  writeFileSync(join(bin, 'npm'), script, { mode: 0o755 });
  return `${bin}:/usr/bin:/bin`;
}

test('a tarball other than the registry says is refused, and nothing is kept', async () => {
  const cache = join(dir, 'tampered');
  const env = { PATH: tamperedNpm('sha512-b3cc8cc1'), HOME: dir };
  await expect(registryRuntimePath('@oven/bun-linux-x64-baseline', '1.4.5', cache, env)).rejects.toThrow(
    /^@oven\/bun-linux-x64-baseline@1\.4\.5: the tarball's integrity sha512-[A-Za-z0-9+/]+=* is not the registry's sha512-b3cc8cc1$/,
  );
  expect(existsSync(cache)).toBe(false);
});

test.skipIf(noNpm !== null)("a version the registry does not have fails with npm's reason, and nothing is kept", async () => {
  const cache = join(dir, 'unknown');
  await expect(registryRuntimePath('@oven/bun-linux-x64-baseline', '0.0.0-none', cache)).rejects.toThrow(
    'npm view @oven/bun-linux-x64-baseline@0.0.0-none dist.integrity --json failed: npm error 404 No match found for version 0.0.0-none',
  );
  expect(existsSync(cache)).toBe(false);
});

test('without npm on PATH the reason names it', async () => {
  await expect(registryRuntimePath('@oven/bun-linux-x64-baseline', '1.4.5', join(dir, 'none'), { PATH: join(dir, 'empty-bin') })).rejects.toThrow(
    'npm is not on PATH: the Bun runtime a release target embeds is fetched with npm and unpacked with tar',
  );
});

test('a kept runtime is used as it is: no npm asked', async () => {
  const cache = join(dir, 'kept');
  mkdirSync(cache);
  writeFileSync(join(cache, 'bun-linux-x64-baseline-v1.4.5'), 'kept');
  expect(await registryRuntimePath('@oven/bun-linux-x64-baseline', '1.4.5', cache, { PATH: join(dir, 'empty-bin') })).toBe(join(cache, 'bun-linux-x64-baseline-v1.4.5'));
  expect(readdirSync(cache)).toEqual(['bun-linux-x64-baseline-v1.4.5']);
});
