// Writes schemas/*.schema.json from the TypeBox schemas and the tool manifest from the skill
// definitions. `--check` exits 1 when a file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { schemaFiles } from '../src/schema/json-files.ts';
import { toolManifestFile } from '../src/skills/manifest.ts';

const check = process.argv.includes('--check');
let stale = 0;
for (const { path, text } of [...schemaFiles(), await toolManifestFile()]) {
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {}
  if (current === text) continue;
  if (check) {
    console.error(`${path} is out of date: run bun run schemas`);
    stale++;
  } else {
    writeFileSync(path, text);
    console.error(`wrote ${path}`);
  }
}
process.exit(stale > 0 ? 1 : 0);
