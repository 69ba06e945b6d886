import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { darkPixels, decodePng } from './png-decode.ts';

// The wasm renderer and the font must travel inside a compiled binary: build one from a small entry
// and run it from an unrelated directory with an empty environment.
const SRC = resolve(import.meta.dir, '../../../../src/skills/benchmark');
let dir: string;
beforeAll(() => {
  dir = tempDir('svc-embed-');
});
afterAll(() => removeDir(dir));

test('a compiled binary renders a PNG from any directory', () => {
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `import { svgToPng } from ${JSON.stringify(join(SRC, '../../chart/png.ts'))};
import { renderSvg } from ${JSON.stringify(join(SRC, 'plot.ts'))};
const svg = renderSvg({ labels: ['a', 'b'], values: [1, 2] }, 'bar', { title: 'Embedded', xlabel: 'x', ylabel: 'y' });
await Bun.write(process.argv[2] as string, (await svgToPng(svg)).bytes);
`,
  );
  const binary = join(dir, 'render');
  const build = Bun.spawnSync([process.execPath, 'build', '--compile', '--format=esm', '--bytecode', entry, '--outfile', binary]);
  expect(build.exitCode).toBe(0);

  const elsewhere = join(dir, 'elsewhere');
  mkdirSync(elsewhere);
  const out = join(elsewhere, 'out.png');
  const run = Bun.spawnSync([binary, out], { cwd: elsewhere, env: {} });
  expect(run.stderr.toString()).toBe('');
  expect(run.exitCode).toBe(0);
  const image = decodePng(new Uint8Array(readFileSync(out)));
  expect([image.width, image.height]).toEqual([1600, 1000]);
  // the title's glyphs are there, so the font came along
  expect(darkPixels(image, 600, 20, 1000, 80)).toBeGreaterThan(200);
}, 60_000);
