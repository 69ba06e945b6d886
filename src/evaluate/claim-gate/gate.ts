import { join } from 'node:path';
import { writeJsonAtomic } from '../../core/atomic.ts';
import { isMapping } from '../../core/values.ts';
import { readMetricContract } from '../metric-contract.ts';
import { toKeyword } from '../metric-keyword.ts';
import { experimentsDirOf } from '../../core/workspace.ts';
import { extractClaims, type NumericClaim } from './claims.ts';
import { environmentFinding, nodeEnvironment } from './environment.ts';
import { collectEvidence, type Evidence } from './evidence.ts';
import type { Finding } from './finding.ts';
import type { GatePolicy, Tolerance } from './policy.ts';

export const GATE_NAME = 'claim_evidence_hard_gate';
export const GATE_PHASES = ['draft', 'final'] as const;
export type GatePhase = (typeof GATE_PHASES)[number];


export type GateReport = {
  gate: typeof GATE_NAME;
  phase: GatePhase;
  policy: GatePolicy;
  status: 'pass' | 'warn' | 'fail' | 'off';
  should_block: boolean;
  errors: Finding[];
  warnings: Finding[];
  metrics: {
    total_claims: number;
    grounded_claims: number;
    numeric_claims: number;
    required_evidence: number;
    numeric_mismatch: number;
    missing_evidence: number;
    evidence_values: number;
    nodes_with_evidence: number;
  };
};

export type GateInput = {
  checkpointDir: string;
  phase: GatePhase;
  /** the text whose numbers are checked (a draft or the final paper), null for the contract alone */
  text: string | null;
  /** where the text came from, named in findings */
  textSource: string;
  policy: GatePolicy;
};

/** How many of the nearest reported values a mismatch names. */
const NEAREST = 3;

/**
 * The deterministic claim/evidence gate: every number the text (and the metric contract's claims)
 * states for a metric must match, within the policy's tolerance, a number a node reported for it
 * (its results.json measurements, its tree.json metrics); every measurement the contract requires
 * must have been reported. Writes `evaluation/claim_evidence_hard_gate_{phase}.json` atomically.
 * It blocks only in strict mode, in the final phase, on an error of a block_on type; off checks nothing.
 */
export function runClaimGate(input: GateInput): { report: GateReport; path: string } {
  const path = join(input.checkpointDir, 'evaluation', `${GATE_NAME}_${input.phase}.json`);
  const errors: Finding[] = [];
  const warnings: Finding[] = [];
  const counts = { numeric: 0, required: 0, grounded: 0, evidenceValues: 0, nodes: 0 };
  if (input.policy.mode !== 'off') {
    const evidence = collectEvidence(input.checkpointDir);
    counts.evidenceValues = [...evidence.byKey.values()].reduce((s, l) => s + l.length, 0);
    counts.nodes = evidence.nodes.size;
    for (const problem of evidence.problems) warnings.push({ type: 'evidence_unreadable', message: problem });
    const contract = readMetricContract(input.checkpointDir);
    const required = stringList(contract?.required_measured);
    const contractClaims = (Array.isArray(contract?.claims) ? contract.claims : []).filter(isMapping);
    const keys = unique([...evidence.byKey.keys(), String(contract?.key ?? ''), String(contract?.metric_keyword ?? ''), ...required, ...contractClaims.flatMap((c) => stringList(c.required_evidence))].map(toKeyword).filter(Boolean));

    const claims = input.text === null ? [] : extractClaims(input.text, keys, input.textSource);
    contractClaims.forEach((c, i) => {
      if (typeof c.claim === 'string') claims.push(...extractClaims(c.claim, keys, `metric_contract.json claims[${i}]`));
    });
    const tol = input.policy.numeric_match.default_tolerance;
    const backing: string[][] = [];
    for (const claim of claims) {
      counts.numeric++;
      const checked = checkNumeric(claim, evidence, tol);
      if ('type' in checked) errors.push(checked);
      else {
        counts.grounded++;
        backing.push(checked.nodes);
      }
    }
    const experiments = experimentsDirOf(input.checkpointDir);
    const mismatch = environmentFinding(backing, (id) => nodeEnvironment(experiments, id));
    if (mismatch) (input.policy.comparison_scope === 'same_environment' ? errors : warnings).push(mismatch);
    const requirements: { key: string; why: string }[] = [
      ...required.map((k) => ({ key: toKeyword(k), why: 'metric_contract.json required_measured' })),
      ...contractClaims.flatMap((c, i) => stringList(c.required_evidence).map((k) => ({ key: toKeyword(k), why: `metric_contract.json claims[${i}] ("${String(c.claim ?? '')}") needs it` }))),
    ];
    for (const r of requirements) {
      counts.required++;
      if (evidence.byKey.has(r.key)) counts.grounded++;
      else errors.push({ type: 'missing_evidence', key: r.key, where: r.why, message: `no node reported '${r.key}' (${r.why})` });
    }
    if (counts.numeric + counts.required === 0) warnings.push({ type: 'no_claims', message: 'no numeric claim and no required evidence to check' });
  }
  const blocking = blockingTypes(input.policy);
  const report: GateReport = {
    gate: GATE_NAME,
    phase: input.phase,
    policy: input.policy,
    status: input.policy.mode === 'off' ? 'off' : errors.length > 0 ? 'fail' : warnings.length > 0 ? 'warn' : 'pass',
    should_block: input.policy.mode === 'strict' && input.phase === 'final' && errors.some((e) => blocking.includes(e.type)),
    errors,
    warnings,
    metrics: {
      total_claims: counts.numeric + counts.required,
      grounded_claims: counts.grounded,
      numeric_claims: counts.numeric,
      required_evidence: counts.required,
      numeric_mismatch: errors.filter((e) => e.type === 'numeric_mismatch').length,
      missing_evidence: errors.filter((e) => e.type === 'missing_evidence').length,
      evidence_values: counts.evidenceValues,
      nodes_with_evidence: counts.nodes,
    },
  };
  writeJsonAtomic(path, report);
  return { report, path };
}

/** The nodes whose reported value of the claim's metric matches it (a percentage may match its fraction), or the finding. */
function checkNumeric(claim: NumericClaim, evidence: Evidence, tol: Tolerance): Finding | { nodes: string[] } {
  const reported = evidence.byKey.get(claim.key) ?? [];
  const base = { key: claim.key, claimed: claim.value, where: claim.where };
  if (reported.length === 0) return { type: 'missing_evidence', ...base, message: `"${claim.snippet}" (${claim.where}): no node reported '${claim.key}'` };
  const candidates = claim.percent ? [claim.value, claim.value / 100] : [claim.value];
  const backing = reported.filter((e) => candidates.some((c) => matches(c, e.value, tol)));
  if (backing.length) return { nodes: unique(backing.map((e) => e.node_id)) };
  const nearest = unique(reported.map((e) => e.value))
    .sort((a, b) => Math.abs(a - claim.value) - Math.abs(b - claim.value))
    .slice(0, NEAREST);
  return {
    type: 'numeric_mismatch',
    ...base,
    evidence: nearest,
    message: `"${claim.snippet}" (${claim.where}): ${claim.value}${claim.percent ? '%' : ''} matches no reported '${claim.key}' within tolerance (nearest ${nearest.join(', ')})`,
  };
}

/** Finding types that block the final phase in strict mode: block_on, and a cross-environment comparison (an error only under same_environment). */
export function blockingTypes(policy: GatePolicy): string[] {
  return [...policy.blocking.block_on, 'environment_mismatch'];
}

/** |claimed − reported| ≤ absolute + relative·|reported|. */
export function matches(claimed: number, reported: number, tol: Tolerance): boolean {
  // 1e-12: so that a claim of 0.3 matches a reported 0.1 + 0.2 at zero tolerance
  return Math.abs(claimed - reported) <= tol.absolute + tol.relative * Math.abs(reported) + 1e-12;
}

function stringList(x: unknown): string[] {
  return Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : [];
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
