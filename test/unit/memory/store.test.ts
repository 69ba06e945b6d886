import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { MemoryStore } from '../../../src/memory/store.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
let store: MemoryStore;
beforeEach(() => {
  dir = tempDir('svc-memstore-');
  store = MemoryStore.open(dir);
});
afterEach(() => {
  store.close();
  removeDir(dir);
});

const agent = (name = 'a') => store.createAgent(name, [], [])?.id ?? '';
const all = { limit: 1000, ascending: true, tags: [] as string[] };
const search = (id: string, query: string, tags: string[] = [], match: 'any' | 'all' = 'any', topK = 10) => store.searchPassages(id, { query, tags, match, topK });

describe('agents', () => {
  test('names are unique: a second agent of a name is refused and nothing changes', () => {
    const id = agent('x');
    expect(id).toStartWith('agent-');
    expect(store.createAgent('x', [], [])).toBeNull();
    expect(store.listAgents({ name: 'x' }).map((a) => a.id)).toEqual([id]);
    expect(store.listAgents().length).toBe(1);
  });

  test('agents list oldest first, in pages', () => {
    const ids = ['a', 'b', 'c'].map((n) => agent(n));
    expect(store.listAgents({ limit: 2 }).map((a) => a.id)).toEqual(ids.slice(0, 2));
    expect(store.listAgents({ limit: 2, after: ids[1] }).map((a) => a.id)).toEqual(ids.slice(2));
    expect(store.listAgents({ name: 'b', after: ids[0] }).map((a) => a.id)).toEqual([ids[1] as string]);
  });

  test('memory blocks given at creation are readable and replaceable', () => {
    const id = store.createAgent('b', ['t'], [{ label: 'persona', value: 'p' }])?.id ?? '';
    expect(store.getAgent(id)?.tags).toEqual(['t']);
    expect(store.getBlock(id, 'persona')).toBe('p');
    store.setBlock(id, 'persona', 'q');
    expect(store.getBlock(id, 'persona')).toBe('q');
    expect(store.getBlock(id, 'human')).toBeNull();
  });

  test('deleting an agent removes its passages, tags, index entries and blocks, and no other agent’s', () => {
    const [a, b] = [agent('a'), agent('b')];
    store.addPassages(a, [{ text: 'shared words here', tags: ['node:1'] }]);
    store.addPassages(b, [{ text: 'shared words here', tags: ['node:1'] }]);
    store.setBlock(a, 'persona', 'x');
    expect(store.deleteAgent(a)).toBe(true);
    expect(store.deleteAgent(a)).toBe(false);
    expect(store.getAgent(a)).toBeNull();
    expect(store.getBlock(a, 'persona')).toBeNull();
    expect(store.listPassages(a, all)).toEqual([]);
    expect(search(a, 'shared')).toEqual([]);
    expect(search(b, 'shared').length).toBe(1);
    expect(search(b, 'shared', ['node:1']).length).toBe(1);
  });
});

describe('passages', () => {
  test('a batch is added in order with ids, tags and one timestamp, and survives reopening', () => {
    const id = agent();
    const added = store.addPassages(id, [
      { text: 'one', tags: ['node:1', 'node:1'] },
      { text: 'two', tags: [] },
    ]);
    expect(added.map((p) => p.text)).toEqual(['one', 'two']);
    expect(added[0]?.tags).toEqual(['node:1']);
    expect(added[0]?.id).toStartWith('passage-');
    store.close();
    store = MemoryStore.open(dir);
    expect(store.listPassages(id, all)).toEqual(added);
  });

  test('adding to an unknown agent adds nothing', () => {
    expect(store.addPassages('agent-none', [{ text: 'x', tags: [] }])).toEqual([]);
  });

  test('list pages with after, newest first when not ascending, and filters by any tag', () => {
    const id = agent();
    const added = store.addPassages(id, ['p0', 'p1', 'p2', 'p3'].map((text, i) => ({ text, tags: [`node:${i % 2}`] })));
    const texts = (ps: { text: string }[]) => ps.map((p) => p.text);
    expect(texts(store.listPassages(id, { ...all, limit: 2 }))).toEqual(['p0', 'p1']);
    expect(texts(store.listPassages(id, { ...all, after: added[1]?.id }))).toEqual(['p2', 'p3']);
    expect(texts(store.listPassages(id, { ...all, ascending: false, after: added[2]?.id }))).toEqual(['p1', 'p0']);
    expect(texts(store.listPassages(id, { ...all, tags: ['node:1'] }))).toEqual(['p1', 'p3']);
    expect(texts(store.listPassages(id, { ...all, tags: ['node:0', 'node:1'] }))).toEqual(['p0', 'p1', 'p2', 'p3']);
    expect(store.listPassages(id, { ...all, tags: ['node:never'] })).toEqual([]);
  });

  test('deleting a passage removes it from lists and both search paths', () => {
    const id = agent();
    const [p] = store.addPassages(id, [{ text: 'remove me', tags: ['node:1'] }]);
    expect(store.deletePassage(id, p?.id ?? '')).toBe(true);
    expect(store.deletePassage(id, p?.id ?? '')).toBe(false);
    expect(search(id, 'remove')).toEqual([]);
    expect(search(id, 'remove', ['node:1'])).toEqual([]);
    expect(store.listPassages(id, all)).toEqual([]);
  });

  test('a passage of another agent cannot be deleted through this one', () => {
    const [a, b] = [agent('a'), agent('b')];
    const [p] = store.addPassages(a, [{ text: 'mine', tags: [] }]);
    expect(store.deletePassage(b, p?.id ?? '')).toBe(false);
    expect(store.listPassages(a, all).length).toBe(1);
  });
});

describe('search', () => {
  const T = {
    warmup: 'learning rate warmup helped the validation accuracy',
    diverged: 'learning rate too high: the loss diverged',
    oom: 'gpu out of memory at batch size 512',
    figures: 'unrelated note about figures',
  };
  const corpus = [
    { text: T.warmup, tags: ['node:1', 'kind:node_scope'] },
    { text: T.diverged, tags: ['node:2', 'kind:node_scope'] },
    { text: T.oom, tags: ['node:3', 'kind:failure_case'] },
    { text: T.figures, tags: ['node:1'] },
  ];

  // both ways of ranking: the whole agent through FTS5, and the candidates of a few tags in process
  for (const [how, tags] of [['whole agent', []] as const, ['among tagged candidates', ['node:1', 'node:2', 'node:3']] as const]) {
    test(`ranks by BM25, best first, with scores (${how})`, () => {
      const id = agent();
      store.addPassages(id, corpus);
      const hits = search(id, 'learning rate warmup', [...tags]);
      expect(hits.map((h) => h.text)).toEqual([T.warmup, T.diverged]);
      expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Infinity);
      expect(search(id, 'GPU Memory', [...tags]).map((h) => h.text)).toEqual([T.oom]);
      expect(search(id, 'learning', [...tags], 'any', 1).length).toBe(1);
    });

    test(`ranks only the text before the metadata separator (${how})`, () => {
      const id = agent();
      store.addPassages(id, [{ text: 'plain body\n<<<SVC_META>>>\n{"note":"zebra"}', tags: ['node:1'] }]);
      expect(search(id, 'zebra', [...tags])).toEqual([]);
      expect(search(id, 'plain', [...tags]).length).toBe(1);
    });

    test(`folds case and diacritics the same way (${how})`, () => {
      const id = agent();
      store.addPassages(id, [{ text: 'Résumé of the CAFÉ experiment', tags: ['node:1'] }]);
      expect(search(id, 'resume cafe', [...tags]).length).toBe(1);
      expect(search(id, 'RÉSUMÉ', [...tags]).length).toBe(1);
    });
  }

  test('tag filters: any matches one of the tags, all needs every tag', () => {
    const id = agent();
    store.addPassages(id, corpus);
    const texts = (tags: string[], match: 'any' | 'all') => search(id, 'learning memory note', tags, match).map((h) => h.text).sort();
    expect(texts(['node:1'], 'any')).toEqual([T.warmup, T.figures].sort());
    expect(texts(['node:2', 'node:3'], 'any')).toEqual([T.diverged, T.oom].sort());
    expect(texts(['node:1', 'kind:node_scope'], 'all')).toEqual([T.warmup]);
    expect(texts(['node:1', 'kind:never'], 'all')).toEqual([]);
    expect(texts(['kind:never'], 'any')).toEqual([]);
  });

  test('tags of another agent never match', () => {
    const [a, b] = [agent('a'), agent('b')];
    store.addPassages(a, corpus);
    store.addPassages(b, [{ text: 'learning elsewhere', tags: ['node:9'] }]);
    expect(search(a, 'learning', ['node:9'])).toEqual([]);
    expect(search(b, 'learning', ['node:1'])).toEqual([]);
    expect(search(a, 'learning').length).toBe(2);
  });

  test('query syntax in user text is searched as words, never an error', () => {
    const id = agent();
    store.addPassages(id, [
      { text: 'foo and bar', tags: ['node:1'] },
      { text: 'AND OR NOT NEAR', tags: ['node:1'] },
    ]);
    for (const tags of [[], ['node:1']]) {
      expect(search(id, 'foo" OR bar*', tags).map((h) => h.text)).toEqual(['foo and bar']);
      expect(search(id, 'AND', tags).map((h) => h.text).sort()).toEqual(['AND OR NOT NEAR', 'foo and bar']);
      for (const q of ['NEAR(foo bar)', 'body:foo', 'scope : a1', '(foo', '"', "'; DROP TABLE passages; --", '^foo', 'foo -bar', '{body scope}: x']) {
        expect(() => search(id, q, tags)).not.toThrow();
      }
    }
    expect(store.listPassages(id, all).length).toBe(2);
  });

  test('stop words count only when the query has nothing else', () => {
    const id = agent();
    store.addPassages(id, [
      { text: 'the of the with the a', tags: ['node:1'] },
      { text: 'loss curve', tags: ['node:1'] },
    ]);
    for (const tags of [[], ['node:1']]) {
      expect(search(id, 'the loss of the', tags).map((h) => h.text)).toEqual(['loss curve']);
      expect(search(id, 'the', tags).map((h) => h.text)).toEqual(['the of the with the a']);
    }
  });

  test('a query without words gives the newest passages with the tags, score 0', () => {
    const id = agent();
    store.addPassages(id, corpus);
    for (const q of ['', '   ', '!!! ??? ***', '"']) {
      const hits = search(id, q, ['node:1']);
      expect(hits.map((h) => h.text)).toEqual([T.figures, T.warmup]);
      expect(hits.every((h) => h.score === 0)).toBe(true);
    }
    expect(search(id, '', [], 'any', 2).map((h) => h.text)).toEqual([T.figures, T.oom]);
    expect(search(id, '', ['node:1', 'kind:node_scope'], 'all').map((h) => h.text)).toEqual([T.warmup]);
  });

  test('many candidates go through the index and rank the same way', () => {
    const id = agent();
    const filler = Array.from({ length: 4500 }, (_, i) => ({ text: `routine note ${i} about training`, tags: ['kind:react_step'] }));
    store.addPassages(id, [...filler, { text: 'the rare zeppelin result', tags: ['kind:react_step'] }, { text: 'zeppelin zeppelin zeppelin', tags: ['kind:react_step'] }]);
    const hits = search(id, 'zeppelin training', ['kind:react_step'], 'any', 3);
    expect(hits.map((h) => h.text).slice(0, 2)).toEqual(['zeppelin zeppelin zeppelin', 'the rare zeppelin result']);
    expect(hits.length).toBe(3);
  });

  test('unknown agent or top_k 0 finds nothing', () => {
    expect(search('agent-none', 'x')).toEqual([]);
    const id = agent();
    store.addPassages(id, corpus);
    expect(search(id, 'learning', [], 'any', 0)).toEqual([]);
  });
});
