import { afterAll, beforeAll, expect, test } from 'bun:test';
import { SkillPool } from '../../../../src/mcp/pool.ts';
import { SVC } from '../../../support/svc.ts';
import { newRun, removeDir, startTestMemory } from './memory-fixture.ts';

let memory: Awaited<ReturnType<typeof startTestMemory>>;
let run: ReturnType<typeof newRun>;
beforeAll(async () => {
  memory = await startTestMemory();
  run = newRun(memory.url);
});
afterAll(async () => {
  removeDir(run.base);
  await memory.stop();
});

/** memory-skill served by the binary (`svc skill serve memory-skill`), started by the run's tool pool. */
function pool(): SkillPool {
  // a node id in the run's environment must not count: the node travels with each call
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...(run.env('stale-node') as Record<string, string>) };
  return new SkillPool({ skills: [{ name: 'memory-skill', phases: ['bfts'], path: 'builtin', builtin: true, found: true, enabled: true }], env, program: SVC });
}

test('through the tool pool over stdio: write as the node of the call, search as its child, CoW refusal as {error}', async () => {
  const p = pool();
  try {
    expect((await p.tools('bfts')).map((t) => t.name)).toContain('consolidate_node_memory');
    expect(await p.call('add_memory', { node_id: 'stale-node', text: 'x' })).toEqual({ error: 'SVC_CURRENT_NODE_ID not set' });
    const added = await p.call('add_memory', { node_id: 'root', text: 'baseline 100 GFLOPS', metadata: { step: 1 } }, { nodeId: 'root' });
    expect(added).toEqual({ result: { entry_id: expect.any(String), node_id: 'root' } });
    expect(await p.call('add_memory', { node_id: 'a', text: 'x' }, { nodeId: 'root' })).toEqual({ error: 'node_id does not match current node (CoW violation)' });
    const found = await p.call('search_memory', { query: 'baseline', ancestor_ids: ['root'] }, { nodeId: 'a' });
    expect(found).toEqual({ result: { results: [{ entry_id: (added as any).result.entry_id, node_id: 'root', text: 'baseline 100 GFLOPS', metadata: { step: 1 }, score: expect.any(Number) }] } });
  } finally {
    await p.close();
  }
});

test('parallel nodes on one skill process each write only into their own scope', async () => {
  const p = pool();
  try {
    const nodes = Array.from({ length: 12 }, (_, i) => `n${i}`);
    const answers = await Promise.all(nodes.flatMap((n) => [0, 1, 2].map((k) => p.call('add_memory', { node_id: n, text: `result ${k} of ${n}` }, { nodeId: n }))));
    expect(answers.filter((a) => 'error' in a)).toEqual([]);
    const crossed = await Promise.all(nodes.map((n, i) => p.call('add_memory', { node_id: nodes[(i + 1) % nodes.length] as string, text: 'x' }, { nodeId: n })));
    expect(crossed.every((a) => 'error' in a && a.error === 'node_id does not match current node (CoW violation)')).toBe(true);
    for (const n of nodes) {
      const mine = await p.call('get_node_memory', { node_id: n }, { nodeId: n });
      expect((mine as { result: { entries: unknown[] } }).result.entries).toHaveLength(3);
    }
    expect(Object.keys(await p.running())).toEqual(['memory-skill']);
  } finally {
    await p.close();
  }
});
