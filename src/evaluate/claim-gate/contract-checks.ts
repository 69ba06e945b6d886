import { isMapping, stringList, unique } from '../../core/values.ts';
import { denominators, EvaluationError, type Expr, evaluate, identifiers, parseExpression, showExpression } from '../expression.ts';
import { toKeyword } from '../metric-keyword.ts';
import type { Finding } from './finding.ts';
import { measuredOn, type NodeArtifacts } from './nodes.ts';
import type { Tolerance } from './policy.ts';
import { matches } from './tolerance.ts';

/** The finding types that block the final paper in every mode but off: a contract the run broke. */
export const ALWAYS_BLOCKING = ['invariant_violation', 'correctness_failed', 'correctness_uncovered', 'placeholder_denominator', 'recompute_mismatch', 'claim_evidence_missing', 'ceiling_unmeasured'] as const;

/** A contract expression that does not parse: the contract is broken, but nothing measured was violated, so only strict mode blocks on it. */
export const CONTRACT_UNPARSABLE = 'contract_unparsable';

type Contract = Record<string, unknown>;
type Measured = { node: NodeArtifacts; values: Measurements };

/**
 * What the metric contract's expressions say about the run's nodes: the formula recomputed on
 * every node that reported the key, the invariants on every node that measured their operands,
 * the correctness check, and whether the ceiling was measured. Every finding is an error; an
 * expression that does not parse is contract_unparsable, naming the expression and the parse error:
 * nothing measured was violated, so it blocks only where strict mode blocks, yet a broken contract
 * never passes for a kept one.
 */
export function contractFindings(contract: Contract, nodes: readonly NodeArtifacts[], fallback: Tolerance): { errors: Finding[]; warnings: Finding[] } {
  const errors: Finding[] = [];
  const warnings: Finding[] = [];
  const measured: Measured[] = nodes.map((node) => ({ node, values: new Measurements(node) })).filter((m) => m.values.size > 0);
  const tol = contractTolerance(contract.tolerance) ?? fallback;
  const key = typeof contract.key === 'string' ? contract.key : '';
  const onKey = measured.filter((m) => key !== '' && m.values.get(key) !== undefined);
  const parsed = (text: unknown, where: string): Expr | null => {
    if (typeof text !== 'string' || text.trim() === '') return null;
    try {
      return parseExpression(text);
    } catch (err) {
      errors.push({ type: CONTRACT_UNPARSABLE, where, message: `metric_contract.json ${where} does not parse: ${(err as Error).message}`.replace(/\s+/g, ' ') });
      return null;
    }
  };
  const everMeasured = (name: string) => measured.some((m) => m.values.get(name) !== undefined);
  const hasAll = (m: Measured, names: string[]) => names.every((n) => m.values.get(n) !== undefined);

  // recompute: the key as the formula gives it from each node's own measurements
  const formula = parsed(contract.formula, 'formula');
  if (formula && !(formula.kind === 'name' && toKeyword(formula.name) === toKeyword(key))) {
    const operands = identifiers(formula);
    for (const op of operands.filter((o) => !everMeasured(o))) errors.push({ type: 'operand_unresolved', key: op, where: 'formula', message: `the formula ${showExpression(formula)} reads '${op}', which no node measured` });
    for (const d of denominators(formula)) {
      if (d.kind === 'number' && (d.value === 0 || d.value === 1)) errors.push({ type: 'placeholder_denominator', where: 'formula', message: `the formula ${showExpression(formula)} divides by ${d.value}: a placeholder, not a measurement` });
    }
    for (const m of onKey.filter((x) => hasAll(x, operands))) {
      const zero = denominators(formula).find((d) => d.kind !== 'number' && safe(d, m.values) === 0);
      if (zero) {
        errors.push({ type: 'placeholder_denominator', where: m.node.node_id, message: `the formula ${showExpression(formula)} divides by ${showExpression(zero)}, which is 0 on ${m.node.node_id}` });
        continue;
      }
      const reported = m.values.get(key) as number;
      const recomputed = safe(formula, m.values);
      if (typeof recomputed !== 'number') {
        errors.push({ type: 'recompute_mismatch', key, where: m.node.node_id, message: `the formula ${showExpression(formula)} has no number on ${m.node.node_id}${typeof recomputed === 'string' ? `: ${recomputed}` : ''}` });
      } else if (!matches(reported, recomputed, tol)) {
        errors.push({ type: 'recompute_mismatch', key, claimed: reported, evidence: [recomputed], where: m.node.node_id, message: `${m.node.node_id} reports ${key} = ${reported}, but its measurements give ${showExpression(formula)} = ${recomputed}` });
      }
    }
  }

  // invariants: on every node that measured what they read
  stringList(contract.invariants).forEach((text, i) => {
    const inv = parsed(text, `invariants[${i}]`);
    if (!inv) return;
    const names = identifiers(inv);
    const checked = measured.filter((m) => hasAll(m, names));
    if (checked.length === 0) warnings.push({ type: 'invariant_unchecked', where: `invariants[${i}]`, message: `no node measured all of ${names.join(', ')}: the invariant ${text} was not checked` });
    for (const m of checked) {
      const holds = safe(inv, m.values);
      if (holds !== true) errors.push({ type: 'invariant_violation', where: m.node.node_id, message: `the invariant ${text} ${holds === false ? 'does not hold' : `cannot be checked (${typeof holds === 'number' ? 'it is a number, not a comparison' : holds})`} on ${m.node.node_id}` });
    }
  });

  // correctness: on the nodes whose key the claims rest on
  const correctness = isMapping(contract.correctness) ? contract.correctness : {};
  const required = contract.correctness_required === true;
  const check = parsed(correctness.expr, 'correctness.expr');
  if (required && check === null && !errors.some((e) => e.where === 'correctness.expr')) {
    errors.push({ type: 'correctness_uncovered', where: 'correctness', message: 'correctness_required is set but the contract has no correctness.expr to check' });
  }
  if (check) {
    const needs = unique([...stringList(correctness.requires), ...identifiers(check)]);
    const scope = onKey.length > 0 ? onKey : measured;
    if (required && scope.length === 0) errors.push({ type: 'correctness_uncovered', where: 'correctness', message: 'correctness_required is set but no node reported measurements to check it on' });
    for (const m of scope) {
      const lacking = needs.filter((n) => m.values.get(n) === undefined);
      if (lacking.length > 0) {
        if (required) errors.push({ type: 'correctness_uncovered', where: m.node.node_id, message: `${m.node.node_id} did not measure ${lacking.join(', ')}, which the correctness check ${showExpression(check)} needs` });
        continue;
      }
      const ok = safe(check, m.values);
      if (ok !== true) errors.push({ type: 'correctness_failed', where: m.node.node_id, message: `the correctness check ${showExpression(check)} ${ok === false ? 'fails' : `cannot be evaluated (${typeof ok === 'number' ? 'it is a number, not a comparison' : ok})`} on ${m.node.node_id}` });
    }
  }

  // ceiling: what the results are compared with must itself have been measured
  if (contract.ceiling_must_be_measured === true) {
    const select = typeof contract.ceiling_select === 'string' ? contract.ceiling_select.trim() : '';
    const ceiling = parsed(select, 'ceiling_select');
    if (select === '') errors.push({ type: 'ceiling_unmeasured', where: 'ceiling_select', message: 'ceiling_must_be_measured is set but ceiling_select names no measurement' });
    else if (ceiling) {
      const names = identifiers(ceiling);
      const never = names.filter((n) => !everMeasured(n));
      if (names.length === 0) errors.push({ type: 'ceiling_unmeasured', where: 'ceiling_select', message: `the ceiling ${select} is a constant, not a measurement` });
      else if (never.length > 0) errors.push({ type: 'ceiling_unmeasured', where: 'ceiling_select', message: `the ceiling ${select} reads ${never.map((n) => `'${n}'`).join(', ')}, which no node measured` });
      else if (!measured.some((m) => hasAll(m, names))) errors.push({ type: 'ceiling_unmeasured', where: 'ceiling_select', message: `no single node measured all of ${names.join(', ')} for the ceiling ${select}` });
    }
  }
  return { errors, warnings };
}

/** The contract's own tolerance when it gives a valid one. */
function contractTolerance(x: unknown): Tolerance | null {
  if (!isMapping(x)) return null;
  const ok = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  return ok(x.absolute) && ok(x.relative) ? { absolute: x.absolute as number, relative: x.relative as number } : null;
}

/** A node's measurements, looked up by name as written or by keyword: `Time (s)` answers to time_s. */
class Measurements extends Map<string, number> {
  constructor(node: NodeArtifacts) {
    super(measuredOn(node));
    for (const [k, v] of [...this]) if (!super.has(toKeyword(k))) super.set(toKeyword(k), v);
  }
  override get(name: string): number | undefined {
    return super.get(name) ?? super.get(toKeyword(name));
  }
}

/** The value, or the reason there is none as a string. */
function safe(e: Expr, values: ReadonlyMap<string, number>): number | boolean | string {
  try {
    return evaluate(e, values);
  } catch (err) {
    if (err instanceof EvaluationError) return err.message;
    throw err;
  }
}

