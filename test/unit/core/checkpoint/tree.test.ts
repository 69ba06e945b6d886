import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTree, readTreeOutline, salvageNodes, type TreeRead } from '../../../../src/core/checkpoint/tree.ts';
import { writeCheckpoint } from '../../../support/checkpoint.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

const tree = (nodes: unknown[]) => JSON.stringify({ run_id: 'r', nodes });

describe('readTree', () => {
  test('reads tree.json as written by the reference implementation', () => {
    // the example of the wire-format reference, statuses and minimal nodes included
    writeFileSync(
      join(dir, 'tree.json'),
      JSON.stringify({
        run_id: 'test123',
        experiment_file: 'exp.md',
        created_at: '2025-01-01T00:00:00',
        experiment_goal: 'optional',
        nodes: [
          { id: 'node_root', parent_id: null, depth: 0, status: 'success', retry_count: 0, children: ['node_b'], label: 'draft', raw_label: '', metrics: { x: 1.0, _scientific_score: 0.5 }, has_real_data: true, eval_summary: 'ok [scientific_score=0.5]', artifacts: [], ancestor_ids: [] },
          { id: 'node_b', parent_id: 'node_root', status: 'completed' },
          { id: 'n0' },
        ],
      }),
    );
    const r = readTree(dir);
    expect(r.problems).toEqual([]);
    expect(r.file).toBe(join(dir, 'tree.json'));
    expect(r.tree?.nodes.map((n) => n.id)).toEqual(['node_root', 'node_b', 'n0']);
  });

  test('falls back to nodes_tree.json, then to a legacy node_*/tree.json', () => {
    mkdirSync(join(dir, 'node_legacy'));
    writeFileSync(join(dir, 'node_legacy', 'tree.json'), tree([{ id: 'legacy' }]));
    expect(readTree(dir).tree?.nodes[0]?.id).toBe('legacy');
    writeFileSync(join(dir, 'nodes_tree.json'), JSON.stringify({ experiment_goal: 'g', nodes: [{ id: 'from-nodes-tree' }] }));
    expect(readTree(dir).tree?.nodes[0]?.id).toBe('from-nodes-tree');
  });

  test('a truncated tree.json is reported by name and its complete nodes are kept', () => {
    const ck = writeCheckpoint(dir, { nodes: 20 });
    const text = readFileSync(join(ck, 'tree.json'), 'utf8');
    writeFileSync(join(ck, 'tree.json'), text.slice(0, Math.floor(text.length * 0.6)));
    const r = readTree(ck);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toContain(`${join(ck, 'tree.json')}: is not valid JSON`);
    expect(r.problems[0]).toMatch(/showing the \d+ complete node record\(s\)/);
    const n = r.tree?.nodes.length ?? 0;
    expect(n).toBeGreaterThan(5);
    expect(n).toBeLessThan(20);
    expect(r.tree?.nodes[0]?.id).toBe('node_20261101120000_generated_run_root');
  });

  test('a damaged tree.json loses to an intact nodes_tree.json', () => {
    writeFileSync(join(dir, 'tree.json'), '{"nodes": [{"id": "a"}, {"id": "b"');
    writeFileSync(join(dir, 'nodes_tree.json'), tree([{ id: 'x' }, { id: 'y' }, { id: 'z' }]));
    const r = readTree(dir);
    expect(r.tree?.nodes.map((n) => n.id)).toEqual(['x', 'y', 'z']);
    expect(r.file).toBe(join(dir, 'nodes_tree.json'));
    expect(r.problems[0]).toContain('tree.json: is not valid JSON');
  });

  test('empty, non-JSON and nodes-less files are reported, not thrown', () => {
    writeFileSync(join(dir, 'tree.json'), '');
    expect(readTree(dir)).toEqual({ tree: null, file: null, problems: [`${join(dir, 'tree.json')}: is empty`] });
    writeFileSync(join(dir, 'tree.json'), 'not json at all');
    expect(readTree(dir).problems[0]).toContain('is not valid JSON');
    writeFileSync(join(dir, 'tree.json'), '{"run_id": "r"}');
    expect(readTree(dir).problems[0]).toContain('has no "nodes" list');
  });

  test('node records without an id are skipped and counted', () => {
    writeFileSync(join(dir, 'tree.json'), tree([{ id: 'a' }, { status: 'success' }, null, { id: '' }]));
    const r = readTree(dir);
    expect(r.tree?.nodes.map((n) => n.id)).toEqual(['a']);
    expect(r.problems[0]).toContain('3 node record(s) without an id were skipped');
  });
});

describe('readTreeOutline', () => {
  const OUTLINE = ['id', 'parent_id', 'status', 'label', 'name', 'metrics'];
  /** readTree's result cut to the outline's fields: what the outline must equal. */
  const cut = (dir: string): TreeRead => {
    const r = readTree(dir);
    const nodes = r.tree?.nodes.map((n) => Object.fromEntries(Object.entries(n).filter(([k]) => OUTLINE.includes(k))));
    const top = r.tree ? Object.fromEntries(Object.entries(r.tree).filter(([k]) => ['run_id', 'experiment_goal', 'status'].includes(k))) : null;
    return { ...r, tree: r.tree ? ({ ...top, nodes } as TreeRead['tree']) : null };
  };

  test('keeps the fields a summary shows, non-ASCII text decoded as written', () => {
    const nodes = [
      { id: 'root', parent_id: null, status: 'success', label: 'draft', name: 'débit → ブロック', metrics: { 'débit': 1.5, _scientific_score: 0.5 }, trace_log: ['→ run_bash', '← ok'], artifacts: [{ content: 'x'.repeat(1000) }] },
      { id: 'n1', parent_id: 'root', status: 'failed', name: 'é🙂' },
    ];
    writeFileSync(join(dir, 'tree.json'), JSON.stringify({ run_id: 'r', experiment_goal: 'Ziel: größer', status: 'stopped', nodes }, null, 2));
    const outline = readTreeOutline(dir);
    expect(outline).toEqual(cut(dir));
    expect(outline.tree?.nodes[0]).toEqual({ id: 'root', parent_id: null, status: 'success', label: 'draft', name: 'débit → ブロック', metrics: { 'débit': 1.5, _scientific_score: 0.5 } });
  });

  test('escapes beside raw UTF-8 in one string, and lone surrogates, read as readTree reads them', () => {
    const escapedE = '\\u00e9';
    writeFileSync(join(dir, 'tree.json'), `{"run_id": "r", "nodes": [{"id": "a", "name": "ü${escapedE}"}, {"id": "b", "name": "x\\ud83d"}, {"id": "c", "name": "${escapedE}"}]}`);
    const outline = readTreeOutline(dir);
    expect(outline).toEqual(cut(dir));
    expect(outline.tree?.nodes.map((n) => n.name)).toEqual(['üé', 'x\ud83d', 'é']);
  });

  test('text written as escapes (an ASCII file) reads the same', () => {
    writeFileSync(join(dir, 'tree.json'), '{"run_id": "r", "nodes": [{"id": "a", "name": "caf\\u00e9 \\u2192 \\ud83d\\ude42"}]}');
    expect(readTreeOutline(dir).tree?.nodes[0]?.name).toBe('café → 🙂');
  });

  test('the checkpoint this repository writes for tests: the same as readTree cut to the outline', () => {
    const ck = writeCheckpoint(dir, { nodes: 40, payloadBytes: 400 });
    expect(readTreeOutline(ck)).toEqual(cut(ck));
  });

  test('a node a line (as svc writes tree.json), indented, compact, or with records that are no node: the same as readTree cut', () => {
    const nodes = [
      { id: 'a', status: 'success', label: 'draft', artifacts: [{ content: '{\n  "nodes": [ ]\n}' }] },
      { id: 'b', parent_id: 'a', name: 'x\n    {"id": "fake"}', metrics: { m: 1 } },
    ];
    const layouts = [
      `{\n  "run_id": "r",\n  "nodes": [\n    ${nodes.map((n) => JSON.stringify(n)).join(',\n    ')}\n  ],\n  "status": "stopped"\n}\n`,
      JSON.stringify({ run_id: 'r', nodes }, null, 2),
      JSON.stringify({ run_id: 'r', nodes }),
      JSON.stringify({ run_id: 'r', nodes: [] }, null, 2),
      JSON.stringify({ run_id: 'r', nodes: [null, ...nodes, 7, { name: 'no id' }] }, null, 2),
      `{\n  "run_id": "r",\n  "nodes": [\n    ${nodes.map((n) => JSON.stringify(n)).join(',\n    null,\n    ')}\n  ]\n}\n`,
    ];
    for (const text of layouts) {
      writeFileSync(join(dir, 'tree.json'), text);
      expect(readTreeOutline(dir)).toEqual(cut(dir));
    }
  });

  test('a damaged, empty or missing tree file gives the problems and salvage readTree gives', () => {
    writeFileSync(join(dir, 'tree.json'), `${tree([{ id: 'a', status: 'success' }, { id: 'b' }]).slice(0, -12)}`);
    expect(readTreeOutline(dir)).toEqual(cut(dir));
    writeFileSync(join(dir, 'tree.json'), '');
    writeFileSync(join(dir, 'nodes_tree.json'), tree([{ id: 'x' }]));
    expect(readTreeOutline(dir)).toEqual(cut(dir));
    mkdirSync(join(dir, 'other'));
    expect(readTreeOutline(join(dir, 'other'))).toEqual({ tree: null, file: null, problems: [] });
  });
});

describe('salvageNodes', () => {
  test('strings with braces and escaped quotes do not confuse the scan', () => {
    const text = '{"run_id": "r", "experiment_goal": "a \\"nodes\\": [ {", "nodes": [{"id": "a", "name": "x}]{"}, {"id": "b", "trace_log": ["\\\\"]}, {"id": "c", "na';
    expect(salvageNodes(text).map((n) => n.id)).toEqual(['a', 'b']);
  });

  test('a nested "nodes" key is not the top-level list', () => {
    expect(salvageNodes('{"meta": {"nodes": [{"id": "wrong"}]}, "nodes": [{"id": "right"}, {')).toEqual([{ id: 'right' }]);
  });
});
