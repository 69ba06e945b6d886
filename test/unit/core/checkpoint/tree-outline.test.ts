import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTree, readTreeOutline, type TreeRead } from '../../../../src/core/checkpoint/tree.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

const NODE_FIELDS = ['id', 'parent_id', 'status', 'label', 'name', 'metrics'];
const TREE_FIELDS = ['run_id', 'experiment_goal', 'status', 'search_state'];
const cutTo = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));

/**
 * What readTreeOutline must give: readTree's result, its nodes cut to the outline when the file
 * parsed, and readTree's result as it is (its salvage, its messages) when it did not.
 */
function expected(): TreeRead {
  const r = readTree(dir);
  if (!r.tree || r.problems.some((p) => p.includes('is not valid JSON'))) return r;
  const nodes = r.tree.nodes.map((n) => cutTo(n as Record<string, unknown>, NODE_FIELDS));
  return { ...r, tree: { ...cutTo(r.tree as Record<string, unknown>, TREE_FIELDS), nodes } as TreeRead['tree'] };
}

function same(text: string | Uint8Array): void {
  writeFileSync(join(dir, 'tree.json'), text);
  const got = readTreeOutline(dir);
  const want = expected();
  expect(got).toEqual(want);
  // the same fields in the same order, none of them undefined
  expect(JSON.stringify(got)).toBe(JSON.stringify(want));
}

/** Nodes of every size around the reader's window (64 KiB) and its layout limit (1 MiB). */
function nodes(): Record<string, unknown>[] {
  const sizes = [0, 10, 3000, 70_000, 10, 200_000, 5, 1_100_000, 40];
  return sizes.map((size, i) => ({
    id: `n${i}`,
    parent_id: i === 0 ? null : `n${i - 1}`,
    status: i % 3 === 1 ? 'failed' : 'success',
    label: 'improve',
    name: `variant ${i} {"id": "fake"} é`,
    metrics: { _scientific_score: i / 10, nested: { list: [1, { deep: null }], text: '}\n]' } },
    artifacts: [{ content: 'x{}[]"\\\n'.repeat(size / 8) }],
    trace_log: Array.from({ length: i }, (_, k) => `→ step ${k} "quoted" \\ }`),
    ancestor_ids: Array.from({ length: i * 50 }, (_, k) => `node_${k}`),
  }));
}

describe('readTreeOutline against readTree', () => {
  test('a tree larger than the read window, as svc, the reference, a compact writer and Windows lay it out', () => {
    const ns = nodes();
    const header = { run_id: 'r', experiment_goal: 'goal', nodes: '@@', search_state: { frontier: ['n1'], big: 'y'.repeat(100_000) }, status: 'stopped' };
    const svcLayout = `${JSON.stringify(header, null, 2).replace('"@@"', `[\n    ${ns.map((n) => JSON.stringify(n)).join(',\n    ')}\n  ]`)}\n`;
    same(svcLayout);
    same(JSON.stringify({ ...header, nodes: ns }, null, 2));
    same(JSON.stringify({ ...header, nodes: ns }, null, '\t'));
    same(JSON.stringify({ ...header, nodes: ns }));
    same(svcLayout.replace(/\n/g, '\r\n'));
  });

  test('text that is not UTF-8, escapes, duplicate and escaped keys, records that are no node', () => {
    same(Buffer.concat([Buffer.from('{"nodes": [{"id": "a", "name": "x'), Buffer.from([0xff, 0xc3]), Buffer.from('y", "trace_log": ["'), Buffer.from([0xe2, 0x82]), Buffer.from('"]}]}')]));
    same('{"n\\u006fdes": [{"\\u0069d": "a", "st\\u0061tus": "failed"}], "r\\u0075n_id": "q", "run_id": "last"}');
    same('{"nodes": [{"id": "a"}], "nodes": [{"id": "b", "name": "first", "name": "second"}]}');
    same('{"nodes": {"id": "no list"}, "nodes": [{"id": "c"}]}');
    same('{"nodes": [{"id": "c"}], "nodes": {"id": "no list"}}');
    same('{"__proto__": {"run_id": "p"}, "nodes": [{"__proto__": {"id": "x"}, "id": "y", "metrics": {"__proto__": 1}}]}');
    same('{"nodes": [null, 7, "s", [1], {"name": "no id"}, {"id": ""}, {"id": "ok", "metrics": {"m": 1e400, "z": -0}}]}');
  });

  test('every cut of a tree file, and damage of every kind, read as readTree reads it', () => {
    const text = `${JSON.stringify({ run_id: 'r', nodes: nodes().slice(0, 3).map((n) => ({ ...n, artifacts: [], ancestor_ids: [] })) }, null, 2)}\n`;
    for (let cut = 0; cut <= text.length; cut += 7) same(text.slice(0, cut));
    const damage = ['"', '\\', '{', '}', '[', ']', ',', ':', 'x', '0', '\u0001', '\ufeff', ' '];
    for (let at = 0; at < text.length; at += 11) {
      for (const d of damage) same(text.slice(0, at) + d + text.slice(at));
      same(text.slice(0, at) + text.slice(at + 1));
    }
  });
});
