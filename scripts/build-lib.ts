// What building svc needs, shared by build.ts (dist/svc for this machine) and scripts/release.ts
// (one executable per platform): the manifest check, the UI bundle and the compile.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import type { BunPlugin } from 'bun';
import { buildDefines, buildFacts } from '../src/core/build-facts.ts';
import { oneLine } from '../src/core/errors.ts';
import { toolManifestFile } from '../src/skills/manifest.ts';
import { tryLockFile } from '../src/core/file-lock.ts';

/** The commit and date `svc --version` prints: worked out once, the same in every binary of a build. */
const BUILD_FACTS = buildDefines(
  await buildFacts(resolve(import.meta.dir, '..'), process.env).catch((err: unknown) => {
    console.error(oneLine(err));
    process.exit(1);
  }),
);

/** Stops the build when the checked-in tool manifest disagrees with the skills built in: the binary lists its tools from it. */
export async function checkManifest(): Promise<void> {
  const manifest = await toolManifestFile();
  if (readFileSync(manifest.path, 'utf8') !== manifest.text) {
    console.error(`${manifest.path} is out of date: run bun run schemas`);
    process.exit(1);
  }
}

/** Where a build bundles the UI: one fixed place per checkout, so two builds see the same paths. */
export const UI_DIR = 'dist/.ui';

/**
 * Makes this process the one building in this checkout until it ends (the kernel drops the lock
 * then): two builds at once would bundle into the one UI_DIR and remove it under each other.
 */
export function holdBuildLock(): void {
  mkdirSync('dist', { recursive: true });
  const lock = tryLockFile('dist/.build.lock');
  if (lock === 'busy') {
    console.error('another build of svc is running in this checkout (dist/.build.lock): wait for it to end, then build again');
    process.exit(1);
  }
}

/**
 * Compiles svc into `outfile` for `target` (a Bun compile target; the host's when absent) with
 * the UI bundled in `uiDir`. `profile`: the binary is run here as its most frequent short
 * commands and compiled again with the bytecode they load laid out first; only for a target
 * that runs on this machine. `runtime`: the Bun executable to embed instead of the one Bun picks.
 */
export async function compileSvc(opts: { outfile: string; uiDir: string; target?: Bun.Build.CompileTarget; runtime?: string; profile: boolean }): Promise<void> {
  const into = { outfile: opts.outfile, uiDir: opts.uiDir, target: opts.target, runtime: opts.runtime };
  await compile(into, null);
  if (!opts.profile) return;
  const profiles = mkdtempSync(join(tmpdir(), 'svc-build-'));
  try {
    await compile(into, recordStarts(opts.outfile, profiles));
  } finally {
    rmSync(profiles, { recursive: true, force: true });
  }
}

type CompileInto = { outfile: string; uiDir: string; target: Bun.Build.CompileTarget | undefined; runtime: string | undefined };

async function compile({ outfile, uiDir, target, runtime }: CompileInto, bytecodeOrder: string[] | null): Promise<void> {
  rmSync(outfile, { force: true });
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
    plugins: [builtUi(uiDir)],
    define: BUILD_FACTS,
    compile: {
      outfile,
      ...(target ? { target } : {}),
      ...(runtime ? { executablePath: runtime } : {}),
      // svc loads .env files itself, in its documented order; Bun must not load the cwd's first
      autoloadDotenv: false,
      autoloadBunfig: false,
      // the binary starts with the JIT held back (its tier-up thresholds scaled up): a short command
      // such as `svc status` is over before compiling would pay off, and the compilers' code and
      // output are megabytes of its memory; every other command turns the JIT on as it starts
      // (dispatch.ts, copy-worker.ts)
      jitPolicy: 1000,
      // the bytecode that `svc status` and `svc --help` load laid out together at the front: they
      // touch fewer of the executable's pages
      ...(bytecodeOrder ? { bytecodeOrder } : {}),
    },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
}

/**
 * Runs the binary as its most frequent short commands, `svc status` on a small checkpoint and
 * `svc --help`, each recording in `dir` the bytecode it loads; returns the recordings, the most
 * frequent command's first.
 */
function recordStarts(binary: string, dir: string): string[] {
  const ck = join(dir, '20260101000000_profile');
  mkdirSync(ck);
  const nodes = Array.from({ length: 40 }, (_, i) => ({
    id: i === 0 ? 'root' : `node_${i}`,
    parent_id: i === 0 ? null : i < 4 ? 'root' : `node_${i - 3}`,
    status: i % 7 === 3 ? 'failed' : 'success',
    label: i === 0 ? 'draft' : 'improve',
    name: `improve: variant ${i}`,
    metrics: i % 7 === 3 ? {} : { throughput: 100 + i, _scientific_score: i / 40 },
    trace_log: ['→ run_bash({"command":"make"})', '  ← ok'],
  }));
  // laid out as svc writes it: a node a line
  writeFileSync(join(ck, 'tree.json'), `{\n  "run_id": "20260101000000_profile",\n  "nodes": [\n    ${nodes.map((n) => JSON.stringify(n)).join(',\n    ')}\n  ],\n  "search_state": {}\n}\n`);
  writeFileSync(join(ck, 'experiment.md'), '# Profile\n\n## Research Goal\nMaximise throughput.\n');
  writeFileSync(join(ck, 'idea.json'), JSON.stringify({ ideas: [{ title: 'An idea', overall_score: 0.5 }], primary_metric: 'throughput' }));
  writeFileSync(join(ck, 'cost_summary.json'), JSON.stringify({ total_cost_usd: 1, total_tokens: 100, call_count: 2 }));
  return [['status', ck], ['--help']].map((args, i) => {
    const file = join(dir, `start-${i}.order`);
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, BUN_BYTECODE_ORDER_OUT: file };
    const r = Bun.spawnSync([resolve(binary), ...args], { cwd: dir, env, stdout: 'ignore', stderr: 'pipe' });
    if (r.exitCode !== 0) {
      console.error(`svc ${args.join(' ')} failed while its start was recorded: ${r.stderr.toString()}`);
      process.exit(1);
    }
    return file;
  });
}

/** The embedded UI's budget: every page's code and styles, gzipped. */
const UI_BUDGET_KB = 400;

/**
 * Bundles the UI for the browser into `dir` (emptied first), minified, and reports what a browser downloads; a UI
 * that does not bundle stops the build here with its errors.
 */
export async function bundleUi(dir: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  const result = await Bun.build({
    entrypoints: ['ui/index.html'],
    outdir: dir,
    target: 'browser',
    // each page's code is its own chunk, fetched when the page is first opened (ui/src/pages/index.ts)
    splitting: true,
    minify: true,
    // React's production build and JSX transform (the development ones are twice the size and warn)
    define: { 'process.env.NODE_ENV': '"production"' },
    // which chunk holds React's DOM renderer, counted with the first page
    metafile: true,
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
  const renderer = new Set(
    Object.entries(result.metafile?.outputs ?? {})
      .filter(([, o]) => Object.keys(o.inputs).some((i) => i.includes('node_modules/react-dom/')))
      .map(([path]) => basename(path)),
  );
  if (renderer.size === 0) {
    console.error('ui bundle: no chunk holds react-dom: the page would load its renderer late (see preloadRenderer)');
    process.exit(1);
  }
  let raw = 0;
  let gzipped = 0;
  let first = 0;
  for (const out of result.outputs) {
    const bytes = new Uint8Array(await out.arrayBuffer());
    const zipped = Bun.gzipSync(bytes).byteLength;
    raw += bytes.byteLength;
    gzipped += zipped;
    // what every page loads: the entry, its styles, and React's DOM renderer (a chunk of its own, fetched while the entry asks for the page's data)
    if (out.kind !== 'chunk' || renderer.has(basename(out.path))) first += zipped;
  }
  preloadRenderer(join(dir, 'index.html'), [...renderer]);
  const kb = (n: number) => (n / 1024).toFixed(1);
  console.error(`ui bundle: ${kb(raw)} KB, ${kb(gzipped)} KB gzipped (budget ${UI_BUDGET_KB} KB gzipped); the first page ${kb(first)} KB gzipped`);
  if (gzipped > UI_BUDGET_KB * 1024) {
    console.error(`ui bundle is over its budget of ${UI_BUDGET_KB} KB gzipped: leave a library out, or load it with the page that needs it (ui/src/pages/index.ts)`);
    process.exit(1);
  }
}

/**
 * The page told to fetch React's DOM renderer at once, beside the entry: the entry imports it
 * only when it runs (after asking for the page's data), and the browser then compiles it while
 * the entry is fetched and run, not after.
 */
function preloadRenderer(html: string, chunks: string[]): void {
  const page = readFileSync(html, 'utf8');
  const links = chunks.map((c) => `<link rel="modulepreload" crossorigin href="./${c}">`).join('');
  if (!page.includes('</head>')) throw new Error(`${html} has no </head> to add the renderer's preload to`);
  writeFileSync(html, page.replace('</head>', `${links}</head>`));
}

/**
 * The dashboard page's module (src/server/ui-page.ts) replaced by the files bundleUi wrote to
 * `dir`, each embedded as it is: bundled again with the server, the page's chunks would be
 * renamed behind the names its script preloads.
 */
function builtUi(dir: string): BunPlugin {
  return {
    name: 'built-ui',
    setup(b) {
      const module = resolve('src', 'server', 'ui-page.ts').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      b.onLoad({ filter: new RegExp(`^${module}$`) }, () => {
        // sorted, and relative to the module: the same source in every checkout, so the same executable
        const names = readdirSync(dir).sort();
        const from = (name: string) => JSON.stringify(relative(resolve('src', 'server'), resolve(dir, name)));
        const imports = names.map((name, i) => `import f${i} from ${from(name)} with { type: 'file' };`);
        const files = names.map((name, i) => `${JSON.stringify(name)}: f${i}`).join(', ');
        return {
          contents: `${imports.join('\n')}\nimport { embeddedPage } from './ui-embedded.ts';\nexport const UI_ROUTES = embeddedPage({ ${files} });\n`,
          loader: 'ts',
        };
      });
    },
  };
}

