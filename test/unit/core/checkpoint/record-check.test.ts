import { describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { compiledCheck } from '../../../../src/core/checkpoint/records.ts';
import { ClaimGateReport, CostSummary, EvaluationCriteria, IdeaFile, ReproducibilityReport, ReviewScore } from '../../../../src/schema/checkpoint.ts';
import { recordCheckCode } from '../../../../src/schema/record-check.ts';

const SCHEMAS = { IdeaFile, EvaluationCriteria, CostSummary, ReviewScore, ClaimGateReport, ReproducibilityReport };

/** Records near each schema's shape: valid ones, and ones with one field changed or gone. */
function records(): unknown[] {
  const odd: unknown[] = [null, 0, 1.5, -1, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, '', 'x', true, [], [1], {}, { a: 1 }];
  const shapes: Record<string, unknown>[] = [
    { ideas: [{ title: 't', overall_score: 0.5, _pinned: true }], primary_metric: 'm', _inherited_from: { parent_run_id: 'p', index: 1 } },
    { total_cost_usd: 1.25, total_tokens: 5000, call_count: 12, by_phase: { idea: { cost_usd: 1, tokens: 2 } }, by_model: {} },
    { overall_score: 7, score: null },
    { primary_metric: 'throughput' },
    { gate: 'claim_evidence_hard_gate', phase: 'final', policy: { mode: 'warn' }, status: 'warn', should_block: false, errors: [], warnings: [{ type: 'no_claims' }] },
  ];
  const out: unknown[] = [...odd];
  for (const shape of shapes) {
    out.push(shape);
    for (const key of [...Object.keys(shape), 'title', 'tokens', 'extra']) {
      const { [key]: _gone, ...rest } = shape;
      out.push(rest);
      for (const v of odd) out.push({ ...shape, [key]: v });
    }
    out.push({ ...shape, ideas: [{ title: 't' }, { title: 3 }] }, { ...shape, by_phase: { 'a\nb': { cost_usd: 'x' }, b: { cost_usd: 1 } } });
  }
  return out;
}

describe('compiled record checks', () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    test(`${name}: passes exactly the records TypeBox finds nothing wrong with`, () => {
      const check = compiledCheck(recordCheckCode(name as keyof typeof SCHEMAS));
      for (const r of records()) expect([r, check(r)]).toEqual([r, Value.Errors(schema, r).First() === undefined]);
    });
  }
});
