// Imports point one way: cli, server and skills on top, domain modules below, core and schema at
// the bottom. A domain module that imports from cli/, server/ or skills/ fails this test. The
// imports are read by Bun's transpiler (static and dynamic imports, re-exports), not by a pattern
// over lines; type-only imports count too, read as the plain imports they would be.
import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SRC = resolve(import.meta.dir, '../../../src');
const TOP = new Set(['cli', 'server', 'skills']);
const BOTTOM = new Set(['core', 'schema']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** `from -> to` for every relative import of `src/`, both as paths relative to src/. */
function importEdges(): string[] {
  const loaders = { ts: new Bun.Transpiler({ loader: 'ts' }), tsx: new Bun.Transpiler({ loader: 'tsx' }) };
  return sourceFiles(SRC).flatMap((file) => {
    // the transpiler drops what only types use; as plain imports they are kept and listed
    const text = readFileSync(file, 'utf8')
      .replace(/\b(import|export)\s+type\s+(?=[{*])/g, '$1 ')
      .replace(/\bimport\s+type\s+(?=\w+\s+from\s)/g, 'import ')
      .replace(/([{,]\s*)type\s+(?=\w)/g, '$1');
    return loaders[file.endsWith('.tsx') ? 'tsx' : 'ts']
      .scanImports(text)
      .filter((imp) => imp.path.startsWith('.'))
      .map((imp) => `${relative(SRC, file)} -> ${relative(SRC, resolve(dirname(file), imp.path))}`);
  });
}

const top = (path: string) => path.split('/')[0] ?? '';

test('no domain module imports from cli/, server/ or skills/', () => {
  const edges = importEdges();
  // the check reads something: the tree has hundreds of relative imports
  expect(edges.length).toBeGreaterThan(500);
  const upward = edges.filter((e) => {
    const [from, to] = e.split(' -> ') as [string, string];
    return !TOP.has(top(from)) && from !== 'main.ts' && TOP.has(top(to));
  });
  expect(upward).toEqual([]);
});

test('core/ and schema/ import nothing above them', () => {
  const upward = importEdges().filter((e) => {
    const [from, to] = e.split(' -> ') as [string, string];
    // files outside src/ (package.json, the bundled workflow.yaml) are data, not layers
    return BOTTOM.has(top(from)) && !BOTTOM.has(top(to)) && !to.startsWith('..');
  });
  expect(upward).toEqual([]);
});

test('http/, the kit every server is built with, imports only core/ and schema/', () => {
  const upward = importEdges().filter((e) => {
    const [from, to] = e.split(' -> ') as [string, string];
    return top(from) === 'http' && top(to) !== 'http' && !BOTTOM.has(top(to)) && !to.startsWith('..');
  });
  expect(importEdges().some((e) => e.startsWith('http/'))).toBe(true);
  expect(upward).toEqual([]);
});

test('no import cycles between modules of src/, type-only imports included', () => {
  const graph = new Map<string, string[]>();
  for (const e of importEdges()) {
    const [from, to] = e.split(' -> ') as [string, string];
    if (!/\.tsx?$/.test(to)) continue;
    graph.set(from, [...(graph.get(from) ?? []), to]);
  }
  // depth-first, with the path so far: an edge back into it closes a cycle
  const done = new Set<string>();
  const cycles: string[] = [];
  const visit = (node: string, path: string[]) => {
    if (done.has(node)) return;
    const at = path.indexOf(node);
    if (at >= 0) {
      cycles.push([...path.slice(at), node].join(' -> '));
      return;
    }
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    done.add(node);
  };
  for (const node of graph.keys()) visit(node, []);
  expect(cycles).toEqual([]);
});
