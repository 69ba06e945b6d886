import { afterAll, beforeAll, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidRecordError } from '../../../src/core/errors.ts';
import { loadTree } from '../../../src/search/tree-store.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeAll(() => {
  dir = tempDir('svc-tree-store-');
});
afterAll(() => removeDir(dir));

const node = (id: string, extra: Record<string, unknown> = {}) => ({ id, parent_id: null, depth: 0, status: 'pending', children: [], ...extra });

// a resumed node's work directory is wiped and rebuilt at experiments/<id>: an id that is a path
// would make the resume delete whatever it names
test('a tree.json whose node id, parent or child is a path is refused, naming the node', () => {
  for (const bad of [node('../../victim'), node('/etc'), node('a/b'), node('node_ok', { parent_id: '../x' }), node('node_ok', { children: ['..'] })]) {
    writeFileSync(join(dir, 'tree.json'), JSON.stringify({ run_id: 'r', nodes: [bad] }));
    expect(() => loadTree(dir)).toThrow(InvalidRecordError);
  }
});

test('a tree.json of plain node ids loads', () => {
  writeFileSync(join(dir, 'tree.json'), JSON.stringify({ run_id: 'r', nodes: [node('node_r_root', { children: ['node_0123abcd'] }), node('node_0123abcd', { parent_id: 'node_r_root' })] }));
  expect(loadTree(dir)?.nodes.map((n) => n.id)).toEqual(['node_r_root', 'node_0123abcd']);
});
