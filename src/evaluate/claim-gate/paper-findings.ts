import { basename } from 'node:path';
import { unique } from '../../core/values.ts';
import { paperSections, sectionAt } from '../../paper/paper-sections.ts';
import { lineAt } from '../../paper/tex-text.ts';
import type { NumericClaim } from './claims.ts';
import { figureFindings } from './figures.ts';
import type { Finding } from './finding.ts';
import { type AnchorLink, type Coverage, isCovered, linkPaper, sectionClassifier } from './link.ts';
import type { RunNodes } from './nodes.ts';
import type { GatePolicy } from './policy.ts';

export type PaperInput = { checkpointDir: string; path: string; tex: string; sha256: string; phase: 'draft' | 'final'; policy: GatePolicy; run: RunNodes; contract: Record<string, unknown> | null };

export type PaperOutcome = {
  errors: Finding[];
  warnings: Finding[];
  /** per grounded anchor and matched number, the nodes behind it: for the cross-environment check */
  backing: string[][];
  anchors: number;
  grounded: number;
  numbers: number;
  covered: number;
  coverage: Coverage[];
};

/**
 * What the gate finds in a LaTeX paper. Two steps, because the gate checks the metric claims of
 * the prose ("accuracy of 91.5%") with the text's rule first: `claims` are the numbers the prose
 * gives for a metric that match none of that metric's values (whatever other value they equal),
 * in the sections the policy checks; `settle` then turns the claim links into findings, leaving
 * out the numbers of refuted claims (offsets), which already have their finding.
 */
export function paperFindings(input: PaperInput): { claims: NumericClaim[]; settle: (refuted: ReadonlySet<number>) => PaperOutcome } {
  const { policy, tex } = input;
  const tol = policy.numeric_match.default_tolerance;
  const linked = linkPaper({ checkpointDir: input.checkpointDir, texPath: input.path, tex, texSha256: input.sha256, phase: input.phase, tolerance: tol, targetSections: policy.numeric_coverage.target_sections, run: input.run, contract: input.contract });
  const { links } = linked;
  const sections = paperSections(tex);
  const classOf = sectionClassifier(policy.numeric_coverage.target_sections);
  const name = basename(input.path);
  // The linking decides first: a number it matched to the data (to its metric's values, when the
  // prose gives it for one) or a setting stands, and one it does not count (a place in the paper, a
  // name, an ordinal) is no claim. A number the prose gives for a metric that none of that metric's
  // values matches is checked against that metric's evidence (numeric_mismatch, with the nearest
  // values); the other uncovered numbers are uncovered_numeric.
  const mismatched = new Set(links.numbers.filter((n) => n.status === 'mismatch').map((n) => n.offset));
  const claims = linked.claims
    .filter((c) => mismatched.has(c.at))
    .map((c) => ({ c, kind: sectionAt(sections, c.at)?.kind ?? 'front_matter' }))
    .filter(({ kind }) => classOf(kind) !== 'excluded')
    .map(({ c, kind }) => ({ ...c, where: `${name} line ${lineAt(tex, c.at)}, ${kind}` }));

  const settle = (refuted: ReadonlySet<number>): PaperOutcome => {
    const errors: Finding[] = [];
    const warnings: Finding[] = [];
    const backing: string[][] = [];
    const at = (line: number, section: string) => `${name} line ${line}, ${section}`;
    const nodeReported = new Set<string>();
    let grounded = 0;
    for (const a of links.anchors) {
      const where = at(a.line, a.section);
      if (a.status === 'unresolved') {
        errors.push({ type: 'unresolved_anchor', key: a.key, where, message: `\\svcclaim{${a.key}} (${where}) names no value of science_data.json${links.science_data.present ? '' : ' (there is no science_data.json)'}` });
        continue;
      }
      if (a.status === 'drift') errors.push({ type: 'declared_value_drift', key: a.key, where, claimed: a.printed_value ?? undefined, evidence: a.science ? [a.science.value] : [], message: `\\svcclaim{${a.key}} (${where}) prints ${a.printed}, but science_data.json gives ${a.science?.printed_as}` });
      if (a.status === 'unfilled') warnings.push({ type: 'unfilled_anchor', key: a.key, where, message: `\\svcclaim{${a.key}} (${where}) has no value yet: the paper tools fill it from science_data.json` });
      const nodeFinding = a.node_check && a.node_check !== 'ok' && !nodeReported.has(a.key) ? nodeProblem(a, where) : null;
      if (nodeFinding) {
        nodeReported.add(a.key);
        errors.push(nodeFinding);
      }
      if (a.status === 'resolved' && (a.node_check === null || a.node_check === 'ok')) {
        grounded++;
        if (a.node_id) backing.push([a.node_id]);
      }
    }
    for (const n of links.numbers) {
      if (n.class === 'excluded' || refuted.has(n.offset)) continue;
      if (n.status === 'matched') {
        const nodes = n.matches.flatMap((m) => (m.node_id ? [m.node_id] : []));
        if (nodes.length > 0) backing.push(unique(nodes));
        continue;
      }
      if (n.status !== 'uncovered') continue; // a mismatch is a claim, refuted or grounded above
      const where = at(n.line, n.section);
      const finding: Finding = { type: 'uncovered_numeric', claimed: n.value, where, message: `${n.text}${n.percent ? '%' : ''} (${where}, ${n.class} section) has no claim anchor and matches no science-data value, node measurement or setting within tolerance: ${n.context}` };
      (n.class === 'strict' && policy.mode === 'strict' ? errors : warnings).push(finding);
    }
    const figures = figureFindings(input.path, tex, input.checkpointDir, linked.science, tol);
    errors.push(...figures.errors);
    warnings.push(...figures.warnings);
    for (const p of links.problems) warnings.push({ type: 'evidence_unreadable', message: p });
    const checked = links.numbers.filter((n) => n.class !== 'excluded');
    return {
      errors,
      warnings,
      backing,
      anchors: links.anchors.length,
      grounded,
      numbers: checked.length,
      covered: checked.filter(isCovered).length,
      coverage: links.coverage,
    };
  };
  return { claims, settle };
}

function nodeProblem(a: AnchorLink, where: string): Finding | null {
  const node = a.node_id ?? '';
  const metric = a.science?.metric ?? a.key;
  switch (a.node_check) {
    case 'artifact_missing':
      return { type: 'artifact_missing', key: a.key, where, message: `\\svcclaim{${a.key}} (${where}) was measured on ${node}, whose work directory or results.json is not there` };
    case 'node_not_executed':
      return { type: 'node_not_executed', key: a.key, where, message: `\\svcclaim{${a.key}} (${where}) was measured on ${node}, which tree.json says never ran` };
    case 'result_unresolved':
      return { type: 'result_unresolved', key: a.key, where, message: `\\svcclaim{${a.key}} (${where}): ${node}'s results report no '${metric}'` };
    case 'value_mismatch':
      return { type: 'numeric_mismatch', key: a.key, where, claimed: a.science?.value, evidence: a.node_value === null ? [] : [a.node_value], message: `\\svcclaim{${a.key}} (${where}): science_data.json gives ${a.science?.value}, but ${node} reported ${metric} = ${a.node_value}` };
    default:
      return null;
  }
}
