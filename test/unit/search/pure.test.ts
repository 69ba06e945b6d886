import { expect, test } from 'bun:test';
import type { NodeLabel, SearchNode } from '../../../src/search/contract.ts';
import { diversityBonus, fallbackPick, fallbackScore, formulaName, type ScoreInputs } from '../../../src/search/frontier-score.ts';
import { childIdOf, newChild, newRoot, nodeName, rootIdOf } from '../../../src/search/node.ts';
import { balancedSpan, inferLabel, parseExpansion } from '../../../src/search/parse-expansion.ts';
import { candidateLines, MAX_SHOWN_CANDIDATES, parseIndex, shownCandidates } from '../../../src/search/select.ts';

const NOW = '2026-01-01T00:00:00.000Z';

function node(id: string, score: number | null, o: Partial<SearchNode> = {}): SearchNode {
  return { ...newRoot('r', 'goal', NOW), id, metrics: score === null ? {} : { _scientific_score: score }, ...o };
}

function inputs(frontierScore: ScoreInputs['settings']['frontierScore'], o: Partial<ScoreInputs> & { lambda?: number; c?: number } = {}): ScoreInputs {
  return { settings: { frontierScore, depthPenaltyLambda: o.lambda ?? 0.05, ucbC: o.c ?? 0.5 }, labelHistory: o.labelHistory ?? [], expansions: o.expansions ?? {}, frontierSize: o.frontierSize ?? 1 };
}

test('ids: the root, children by sha256 of parent/n, names cut to 60 characters', () => {
  expect(rootIdOf('20260101_x')).toBe('node_20260101_x_root');
  expect(childIdOf('node_a', 0)).toBe(`node_${new Bun.CryptoHasher('sha256').update('node_a/0').digest('hex').slice(0, 8)}`);
  expect(nodeName('improve', `${'x'.repeat(70)}`)).toBe(`improve: ${'x'.repeat(60)}`);
  const root = newRoot('r', '# Title\n\nbody', NOW);
  expect(root.name).toBe('draft: Title');
  const a = newChild(root, () => false, 'debug', 'debug', 'fix it', NOW);
  const b = newChild(root, (id) => id === childIdOf(root.id, 1), 'debug', 'debug', 'fix it', NOW);
  expect(a.id).toBe(childIdOf(root.id, 0));
  expect(b.id).toBe(childIdOf(root.id, 2)); // a clash moves on to the next count
  expect(a.ancestor_ids).toEqual([root.id]);
  expect(a.depth).toBe(1);
  expect(a.eval_summary).toBe('fix it');
  expect(root.children).toEqual([a.id, b.id]);
});

test('diversity bonus: +0.05 when the label ran at most half as often as the most frequent of the last 20', () => {
  const h: NodeLabel[] = ['improve', 'improve', 'improve', 'improve', 'debug', 'debug', 'ablation'];
  expect(diversityBonus('ablation', h)).toBe(0.05); // 1*2 <= 4
  expect(diversityBonus('debug', h)).toBe(0.05); // 2*2 <= 4
  expect(diversityBonus('improve', h)).toBe(0);
  expect(diversityBonus('draft', [])).toBe(0.05);
  // only the last 20 count
  expect(diversityBonus('debug', [...Array(30).fill('debug'), ...Array(20).fill('improve')])).toBe(0.05);
});

test('the four fallback formulas, and zero lambda or c reducing to the default', () => {
  const n = node('n1', 0.6, { depth: 3, label: 'improve' });
  const h: NodeLabel[] = ['debug', 'debug'];
  expect(fallbackScore(n, inputs('scientific_only', { labelHistory: h }))).toBeCloseTo(0.6);
  expect(fallbackScore(n, inputs('scientific_plus_diversity', { labelHistory: h }))).toBeCloseTo(0.65);
  expect(fallbackScore(n, inputs('depth_penalized', { labelHistory: h, lambda: 0.1 }))).toBeCloseTo(0.65 - 0.3);
  expect(fallbackScore(n, inputs('depth_penalized', { labelHistory: h, lambda: 0 }))).toBeCloseTo(0.65);
  const ucb = inputs('ucb_like', { labelHistory: h, c: 0.5, expansions: { n1: 2, n2: 3 }, frontierSize: 4 });
  expect(fallbackScore(n, ucb)).toBeCloseTo(0.65 + 0.5 * Math.sqrt(Math.log(9) / 3));
  expect(fallbackScore(n, inputs('ucb_like', { labelHistory: h, c: 0 }))).toBeCloseTo(0.65);
  expect(fallbackScore(node('z', null), inputs('ucb_like', { frontierSize: 0 }))).toBeCloseTo(0.05); // N = max(1, 0): ln 1 = 0
  expect(formulaName({ frontierScore: 'ucb_like', depthPenaltyLambda: 1, ucbC: 0 })).toBe('scientific_plus_diversity');
  expect(formulaName({ frontierScore: 'depth_penalized', depthPenaltyLambda: 0.1, ucbC: 0 })).toBe('depth_penalized');
});

test('the fallback pick prefers nodes with real data, then the highest score, the earliest on ties', () => {
  const inp = inputs('scientific_only');
  const a = node('a', 0.9, { has_real_data: false });
  const b = node('b', 0.4, { has_real_data: true });
  const c = node('c', 0.4, { has_real_data: true });
  expect(fallbackPick([a, b, c], inp).id).toBe('b');
  expect(fallbackPick([a, node('d', 0.95)], inp).id).toBe('d');
});

test('index answers: a bare integer in range, with thinking, brackets or a period allowed', () => {
  expect(parseIndex('2', 3)).toBe(2);
  expect(parseIndex(' [1]. ', 3)).toBe(1);
  expect(parseIndex('<think>maybe 0</think>\n`2`', 3)).toBe(2);
  expect(parseIndex('3', 3)).toBeNull();
  expect(parseIndex('-1', 3)).toBeNull();
  expect(parseIndex('node 1', 3)).toBeNull();
  expect(parseIndex('1 or 2', 3)).toBeNull();
  expect(parseIndex('', 3)).toBeNull();
});

test('candidates: one line each; past 20 the best by the fallback score, in tree order', () => {
  const inp = inputs('scientific_only');
  const many = Array.from({ length: 30 }, (_, i) => node(`node_${String(i).padStart(8, '0')}`, i / 100));
  const shown = shownCandidates(many, inp);
  expect(shown).toHaveLength(MAX_SHOWN_CANDIDATES);
  expect(shown[0]?.id).toBe('node_00000010');
  const lines = candidateLines(shown.slice(0, 2), inp).split('\n');
  expect(lines[0]).toBe('[0] id=00000010, depth=0, label=draft, status=pending, has_real_data=false, metrics={"_scientific_score":0.1}, summary=, diversity_bonus=0.05');
});

test('expansion answers: an array, a lone object, prose around JSON, thinking, unknown labels, free text', () => {
  expect(parseExpansion('[{"label": "ablation", "direction": "drop step 2"}]', true)).toEqual({ label: 'ablation', rawLabel: 'ablation', direction: 'drop step 2' });
  expect(parseExpansion('<think>hmm [no]</think>Here: {"label": "Improve", "direction": "unroll"} ok', true)).toEqual({ label: 'improve', rawLabel: 'Improve', direction: 'unroll' });
  expect(parseExpansion('```json\n[{"label": "refactor", "direction": "split [the] file"}]\n```', true)).toEqual({ label: 'other', rawLabel: 'refactor', direction: 'split [the] file' });
  expect(parseExpansion('Try an ablation of the cache', true)?.label).toBe('ablation');
  expect(parseExpansion('Try an ablation of the cache', false)?.label).toBe('debug');
  expect(parseExpansion('Something new entirely', true)).toEqual({ label: 'draft', rawLabel: 'draft', direction: 'Something new entirely' });
  expect(parseExpansion('<think>only thoughts</think>', true)).toBeNull();
  expect(parseExpansion('   ', true)).toBeNull();
  expect(balancedSpan('x [1, "]", [2]] y', '[')).toBe('[1, "]", [2]]');
  expect(inferLabel('validate on another machine', true)).toBe('validation');
});

test('children of roots of different runs have the same ids, so a replay in a new checkpoint names its nodes alike', () => {
  expect(childIdOf(rootIdOf('20261122130000_sort'), 0)).toBe(childIdOf(rootIdOf('20261123090000_sort'), 0));
  expect(childIdOf(rootIdOf('r1'), 0)).not.toBe(childIdOf(rootIdOf('r1'), 1));
  expect(childIdOf(childIdOf(rootIdOf('r1'), 0), 0)).toBe(childIdOf(childIdOf(rootIdOf('r2'), 0), 0));
});
