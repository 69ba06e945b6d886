// Builds dist/svc: one executable with the workflow and every asset embedded.
import { readFileSync, rmSync } from 'node:fs';
import { toolManifestFile } from './src/skills/manifest.ts';

// the binary lists its tools from the checked-in manifest, so it must agree with the skills built in
const manifest = await toolManifestFile();
if (readFileSync(manifest.path, 'utf8') !== manifest.text) {
  console.error(`${manifest.path} is out of date: run bun run schemas`);
  process.exit(1);
}
rmSync('dist', { recursive: true, force: true });
const result = await Bun.build({
  // workers are their own entrypoints in a compiled executable
  entrypoints: ['src/main.ts', 'src/ear/copy-worker.ts'],
  // esm is required: cjs bytecode builds crash at start
  format: 'esm',
  // each import() becomes a chunk evaluated on first use: a command does not pay for the others' code
  splitting: true,
  bytecode: true,
  minify: true,
  sourcemap: 'none',
  compile: {
    outfile: 'dist/svc',
    // svc loads .env files itself, in its documented order; Bun must not load the cwd's first
    autoloadDotenv: false,
    autoloadBunfig: false,
  },
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.error(`built dist/svc`);
