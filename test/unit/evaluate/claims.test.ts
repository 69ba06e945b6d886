import { describe, expect, test } from 'bun:test';
import { extractClaims } from '../../../src/evaluate/claim-gate/claims.ts';
import { claimProse } from '../../../src/evaluate/claim-gate/link.ts';
import { matches } from '../../../src/evaluate/claim-gate/tolerance.ts';
import { resolvePolicy } from '../../../src/evaluate/claim-gate/policy.ts';
import { bundledWorkflow } from '../../../src/core/config/workflow.ts';

const KEYS = ['accuracy', 'top_1_accuracy', 'speedup'];
const values = (text: string) => extractClaims(text, KEYS, 'text').map((c) => [c.key, c.value, c.percent]);

describe('extractClaims', () => {
  test('the number after a metric name, a few words on, with a percent sign or not', () => {
    expect(values('Accuracy: 0.5. The speedup reached 2.3x on 8 cores; accuracy = .75')).toEqual([
      ['accuracy', 0.5, false],
      ['speedup', 2.3, false],
      ['accuracy', 0.75, false],
    ]);
    expect(values('an accuracy of 91.2 percent')).toEqual([['accuracy', 91.2, true]]);
  });

  test('the longer name owns a number both names reach; spellings of a key match', () => {
    expect(values('Our Top-1 Accuracy of 91.2% beats it')).toEqual([['top_1_accuracy', 91.2, true]]);
  });

  test('no claim across a sentence end, beyond the window, or for a name inside a word', () => {
    expect(values('We report accuracy. In 2020 it was different.')).toEqual([]);
    expect(values(`accuracy ${'word '.repeat(10)}0.9`)).toEqual([]);
    expect(values('inaccuracy of 0.3 and speedups of 4')).toEqual([]);
  });

  test('a number written before a metric name or a unit of one is that metric\'s, not the one named before it', () => {
    const read = (text: string) => extractClaims(text, ['comparisons', 'time_s'], 'text', ['configurations']).map((c) => [c.key, c.value]);
    expect(read('comparisons, the best of 2 configurations')).toEqual([]);
    expect(read('comparisons with 0.5 s per sort')).toEqual([['time_s', 0.5]]);
    expect(read('comparisons of 2.0 time s')).toEqual([['time_s', 2]]);
    expect(read('comparisons of 50 comparisons')).toEqual([['comparisons', 50]]);
    expect(read('comparisons of 2.0 on the input')).toEqual([['comparisons', 2]]);
    // a unit several names end with says nothing of which
    expect(extractClaims('comparisons of 3 s', ['comparisons', 'time_s', 'wall_s'], 'text').map((c) => c.key)).toEqual([]);
  });

  test('claimProse drops comments and commands, keeps \\% and offsets, and stops a claim at an anchor', () => {
    const tex = 'The \\emph{accuracy} is $91.5\\%$. % accuracy 12\nThe accuracy of \\svcclaim{best.accuracy}{0.9} beats 3 others.\n';
    const prose = claimProse(tex);
    expect(prose).toHaveLength(tex.length);
    const claims = extractClaims(prose, KEYS, 'tex');
    expect(claims.map((c) => [c.value, c.percent])).toEqual([[91.5, true]]);
    expect(tex.slice(claims[0]?.at, (claims[0]?.at ?? 0) + 4)).toBe('91.5');
  });
});

describe('matches', () => {
  test('|claimed − reported| ≤ absolute + relative·|reported|', () => {
    const tol = { absolute: 0, relative: 0.02 };
    expect(matches(2.04, 2, tol)).toBe(true);
    expect(matches(2.05, 2, tol)).toBe(false);
    expect(matches(-2.04, -2, tol)).toBe(true);
    expect(matches(0.3, 0.1 + 0.2, { absolute: 0, relative: 0 })).toBe(true);
    expect(matches(0.05, 0, { absolute: 0.05, relative: 0.5 })).toBe(true);
  });
});

describe('resolvePolicy', () => {
  const base = bundledWorkflow().claim_gate_policy;
  test('the workflow block by default; the override replaces the keys it gives; the environment wins', () => {
    expect(resolvePolicy(base, undefined, {})).toEqual({ ...base, mode: 'warn' });
    const p = resolvePolicy(base, { mode: 'strict', numeric_match: { default_tolerance: { absolute: 0.1 } } }, { SVC_COMPARISON_SCOPE: 'same_environment' });
    expect(p.mode).toBe('strict');
    expect(p.numeric_match.default_tolerance).toEqual({ absolute: 0.1, relative: 0.02 });
    expect(p.comparison_scope).toBe('same_environment');
    expect(resolvePolicy(base, { mode: 'strict' }, { SVC_CLAIM_GATE_MODE: 'off' }).mode).toBe('off');
    // the workflow's own block is not changed
    expect(base.numeric_match.default_tolerance.absolute).toBe(0);
  });

  test('bad values name their key', () => {
    expect(() => resolvePolicy(base, [1], {})).toThrow('policy must be an object');
    expect(() => resolvePolicy(base, { numeric_match: 3 }, {})).toThrow('policy.numeric_match must be an object');
    expect(() => resolvePolicy(base, { comparison_scope: 'lab' }, {})).toThrow('policy.comparison_scope must be one of any, same_environment, got "lab"');
    expect(() => resolvePolicy(base, {}, { SVC_COMPARISON_SCOPE: 'x' })).toThrow('SVC_COMPARISON_SCOPE must be one of any, same_environment, got "x"');
  });
});
