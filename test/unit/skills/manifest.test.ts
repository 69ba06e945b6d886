import { afterEach, beforeEach, expect, test } from 'bun:test';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { BUILTIN_SKILLS as MANIFEST_SKILLS, TOOL_MANIFEST_FILE } from '../../../src/schema/tool-manifest.ts';
import { BUILTIN_SKILLS } from '../../../src/skills/catalog.ts';
import { toolManifestFile } from '../../../src/skills/manifest.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const ROOT = resolve(import.meta.dir, '../../..');

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

test('the checked-in tool manifest matches the skill definitions (run `bun run schemas` after a change)', async () => {
  const { path, text } = await toolManifestFile();
  expect(readFileSync(join(ROOT, path), 'utf8')).toBe(text);
  expect([...MANIFEST_SKILLS]).toEqual([...BUILTIN_SKILLS]);
});

/** The generated files of the tree, copied into `dir`, the manifest changed by `edit`. */
function copyGenerated(edit: (text: string) => string): void {
  cpSync(join(ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
  mkdirSync(dirname(join(dir, TOOL_MANIFEST_FILE)), { recursive: true });
  writeFileSync(join(dir, TOOL_MANIFEST_FILE), edit(readFileSync(join(ROOT, TOOL_MANIFEST_FILE), 'utf8')));
}

const check = () => Bun.spawnSync([process.execPath, join(ROOT, 'scripts/gen-schemas.ts'), '--check'], { cwd: dir, stderr: 'pipe' });

test('gen-schemas --check passes on the current manifest and fails on a stale one', () => {
  copyGenerated((text) => text);
  expect(check().exitCode).toBe(0);
  copyGenerated((text) => text.replace('"usesModel": true', '"usesModel": false'));
  const stale = check();
  expect(stale.exitCode).toBe(1);
  expect(stale.stderr.toString()).toContain(`${TOOL_MANIFEST_FILE} is out of date`);
});
