import { join } from 'node:path';
import { writeJsonAtomic } from '../../core/atomic.ts';
import { isMapping, stringList, unique } from '../../core/values.ts';
import { readMetricContract } from '../metric-contract.ts';
import { toKeyword } from '../metric-keyword.ts';
import { extractClaims, type NumericClaim } from './claims.ts';
import { ALWAYS_BLOCKING, CONTRACT_UNPARSABLE, contractFindings } from './contract-checks.ts';
import { environmentFinding, nodeEnvironment } from './environment.ts';
import { collectEvidence, type Evidence } from './evidence.ts';
import type { Finding } from './finding.ts';
import { paperFindings } from './paper-findings.ts';
import { claimKeys, type Coverage } from './link.ts';
import { readRunNodes } from './nodes.ts';
import type { GatePolicy, Tolerance } from './policy.ts';
import { matches } from './tolerance.ts';

const GATE_NAME = 'claim_evidence_hard_gate';
export const GATE_PHASES = ['draft', 'final'] as const;
export type GatePhase = (typeof GATE_PHASES)[number];

export type GateReport = {
  gate: typeof GATE_NAME;
  phase: GatePhase;
  policy: GatePolicy;
  status: 'pass' | 'warn' | 'fail' | 'off';
  should_block: boolean;
  /** one line, when should_block: how many errors block and the first of them */
  reason?: string;
  /** the file checked and its SHA-256, so a later stage can tell which paper a report is for; null for text */
  tex_path: string | null;
  tex_sha256: string | null;
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
    /** a paper's: its anchors, its numbers without one and how many of those are covered, by section */
    anchors?: number;
    numbers?: number;
    covered_numbers?: number;
    coverage?: Coverage[];
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
  /** a LaTeX paper, read through the claim linking instead of as text, and the SHA-256 of its file's bytes */
  paper?: { path: string; tex: string; sha256: string } | null;
  /** the file the text was read from and the SHA-256 of its bytes, for tex_path and tex_sha256 */
  file?: { path: string; text: string; sha256: string } | null;
};

/** How many of the nearest reported values a mismatch names. */
const NEAREST = 3;

/**
 * The deterministic claim/evidence gate: every number the text (and the metric contract's claims)
 * states for a metric must match, within the policy's tolerance, a number a node reported for it
 * (its results.json measurements, its tree.json metrics); every measurement the contract requires
 * must have been reported; the contract's formula, invariants, correctness check and ceiling must
 * hold on the nodes. A LaTeX paper is read through the claim linking: its anchors against
 * science_data.json and their nodes, its other numbers by section against the coverage policy,
 * its figures against figures_manifest.json. Writes `evaluation/claim_evidence_hard_gate_{phase}.json`
 * atomically. Off checks nothing; see shouldBlock for what blocks.
 */
export function runClaimGate(input: GateInput): { report: GateReport; path: string } {
  const path = join(input.checkpointDir, 'evaluation', `${GATE_NAME}_${input.phase}.json`);
  const errors: Finding[] = [];
  const warnings: Finding[] = [];
  const counts = { numeric: 0, required: 0, grounded: 0, evidenceValues: 0, nodes: 0 };
  let paperMetrics: Pick<GateReport['metrics'], 'anchors' | 'numbers' | 'covered_numbers' | 'coverage'> = {};
  const file = input.paper ?? input.file ?? null;
  if (input.policy.mode !== 'off') {
    const run = readRunNodes(input.checkpointDir);
    const evidence = collectEvidence(input.checkpointDir, run);
    counts.evidenceValues = [...evidence.byKey.values()].reduce((s, l) => s + l.length, 0);
    counts.nodes = evidence.nodes.size;
    for (const problem of evidence.problems) warnings.push({ type: 'evidence_unreadable', message: problem });
    const contract = readMetricContract(input.checkpointDir);
    const required = stringList(contract?.required_measured);
    const contractClaims = (Array.isArray(contract?.claims) ? contract.claims : []).filter(isMapping);
    const keys = claimKeys(run, contract);
    const tol = input.policy.numeric_match.default_tolerance;
    const backing: string[][] = [];

    const claims: NumericClaim[] = [];
    const paper = input.paper ? paperFindings({ checkpointDir: input.checkpointDir, path: input.paper.path, tex: input.paper.tex, sha256: input.paper.sha256, phase: input.phase, policy: input.policy, run, contract }) : null;
    if (paper) claims.push(...paper.claims);
    else if (input.text !== null) claims.push(...extractClaims(input.text, keys, input.textSource));
    contractClaims.forEach((c, i) => {
      if (typeof c.claim === 'string') claims.push(...extractClaims(c.claim, keys, `metric_contract.json claims[${i}]`));
    });
    const ofPaper = new Set(paper?.claims);
    const refuted = new Set<number>();
    for (const claim of claims) {
      // a paper's claims are among its numbers, which the paper's outcome counts
      if (!ofPaper.has(claim)) counts.numeric++;
      const checked = checkNumeric(claim, evidence, tol);
      if ('type' in checked) {
        errors.push(checked);
        if (ofPaper.has(claim)) refuted.add(claim.at);
      } else {
        counts.grounded++;
        backing.push(checked.nodes);
      }
    }
    if (paper) {
      const own = paper.settle(refuted);
      errors.push(...own.errors);
      warnings.push(...own.warnings.filter((w) => w.type !== 'evidence_unreadable' || !evidence.problems.includes(w.message)));
      backing.push(...own.backing);
      counts.numeric += own.anchors + own.numbers;
      counts.grounded += own.grounded + own.covered;
      paperMetrics = { anchors: own.anchors, numbers: own.numbers, covered_numbers: own.covered, coverage: own.coverage };
    }
    // each node's report is read once, however many claims it backs
    const environments = new Map<string, string | null>();
    const envOf = (id: string) => {
      if (!environments.has(id)) environments.set(id, nodeEnvironment(run.experimentsDir, id));
      return environments.get(id) ?? null;
    };
    const mismatch = environmentFinding(backing, envOf);
    if (mismatch) (input.policy.comparison_scope === 'same_environment' ? errors : warnings).push(mismatch);
    const requirements: { key: string; why: string; type: string }[] = [
      ...required.map((k) => ({ key: toKeyword(k), why: 'metric_contract.json required_measured', type: 'missing_evidence' })),
      ...contractClaims.flatMap((c, i) => stringList(c.required_evidence).map((k) => ({ key: toKeyword(k), why: `metric_contract.json claims[${i}] ("${String(c.claim ?? '')}") needs it`, type: 'claim_evidence_missing' }))),
    ];
    for (const r of requirements) {
      counts.required++;
      if (evidence.byKey.has(r.key)) counts.grounded++;
      else errors.push({ type: r.type, key: r.key, where: r.why, message: `no node reported '${r.key}' (${r.why})` });
    }
    if (contract) {
      const checked = contractFindings(contract, [...run.nodes.values()], tol);
      errors.push(...checked.errors);
      warnings.push(...checked.warnings);
    }
    if (counts.numeric + counts.required === 0) warnings.push({ type: 'no_claims', message: 'no numeric claim and no required evidence to check' });
  }
  const blocking = blockingErrors(input.policy, input.phase, errors);
  const report: GateReport = {
    gate: GATE_NAME,
    phase: input.phase,
    policy: input.policy,
    status: input.policy.mode === 'off' ? 'off' : errors.length > 0 ? 'fail' : warnings.length > 0 ? 'warn' : 'pass',
    should_block: blocking.length > 0,
    ...(blocking.length > 0 ? { reason: `${blocking.length} blocking error${blocking.length > 1 ? 's' : ''}, the first: ${blocking[0]?.message ?? ''}` } : {}),
    tex_path: file?.path ?? null,
    tex_sha256: file?.sha256 ?? null,
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
      ...paperMetrics,
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

/**
 * The errors that block finalization. Off never blocks, nor does the draft phase. In warn and
 * strict a broken metric contract (ALWAYS_BLOCKING) blocks the final phase; strict also blocks on
 * a block_on error, on a cross-environment comparison (an error only under same_environment), on
 * an uncovered number in a strict section (an error only in strict) and on a contract expression
 * that does not parse.
 */
function blockingErrors(policy: GatePolicy, phase: GatePhase, errors: readonly Finding[]): Finding[] {
  if (policy.mode === 'off' || phase !== 'final') return [];
  const always = new Set<string>(ALWAYS_BLOCKING);
  const strict = new Set([...policy.blocking.block_on, 'environment_mismatch', 'uncovered_numeric', CONTRACT_UNPARSABLE]);
  return errors.filter((e) => always.has(e.type) || (policy.mode === 'strict' && strict.has(e.type)));
}
