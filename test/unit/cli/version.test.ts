import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { version } from '../../../package.json';
import { buildDefines } from '../../../src/core/build-facts.ts';
import { versionLine } from '../../../src/cli/version.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const MAIN = resolve(import.meta.dir, '../../../src/main.ts');

let dir: string;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => removeDir(dir));

describe('svc --version', () => {
  test('run from source it says it is unbuilt, and exits 0', () => {
    for (const flag of ['--version', '-v']) {
      const r = Bun.spawnSync([process.execPath, 'run', MAIN, flag], { cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir }, stdout: 'pipe', stderr: 'pipe' });
      expect({ code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() }).toEqual({ code: 0, stdout: `svc ${version} (unbuilt: run from source)\n`, stderr: '' });
    }
    expect(versionLine('1.2.3')).toBe('svc 1.2.3 (unbuilt: run from source)');
  });

  test("a bundle built with the build's defines prints its commit and date", async () => {
    const entry = join(dir, 'entry.ts');
    writeFileSync(entry, `import { versionLine } from ${JSON.stringify(resolve(import.meta.dir, '../../../src/cli/version.ts'))};\nconsole.log(versionLine('1.2.3'));\n`);
    const built = await Bun.build({ entrypoints: [entry], outdir: join(dir, 'out'), target: 'bun', minify: true, define: buildDefines({ commit: '0123456789ab-dirty', date: '2026-11-29' }) });
    expect(built.success).toBe(true);
    const r = Bun.spawnSync([process.execPath, join(dir, 'out', 'entry.js')], { stdout: 'pipe', stderr: 'pipe' });
    expect(r.stdout.toString()).toBe('svc 1.2.3 (commit 0123456789ab-dirty, built 2026-11-29)\n');
  });
});
