import { Type as T } from '@sinclair/typebox';
import { GATE_PHASES } from '../../evaluate/claim-gate/gate.ts';
import { claimGate } from '../../evaluate/claim-gate/index.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';

export const claimEvidenceHardGate = defineTool({
  name: 'claim_evidence_hard_gate',
  description:
    "Check the numbers a text or paper claims for the run's metrics against the numbers its nodes reported (results.json measurements, tree.json metrics) and the metric contract (required evidence, formula recomputed per node, invariants, correctness check, measured ceiling), within claim_gate_policy.numeric_match.default_tolerance. " +
    'A .tex paper (tex_path) is read through the claim linking of link_paper_claims: anchors against science_data.json and their nodes, other numbers by section against numeric_coverage.target_sections, figures against figures_manifest.json. ' +
    'Writes evaluation/claim_evidence_hard_gate_{phase}.json in the checkpoint and returns that report (with tex_path, tex_sha256, reason when it blocks) and report_path. Mode off, warn or strict (SVC_CLAIM_GATE_MODE wins); draft never blocks. ' +
    'The final phase fails with an error in warn and strict on a broken contract (invariant_violation, correctness_failed, correctness_uncovered, placeholder_denominator, recompute_mismatch, claim_evidence_missing, ceiling_unmeasured), and in strict also on a block_on finding, a contract expression that does not parse (contract_unparsable) or an uncovered number in a strict section.',
  params: toolParams({
    checkpoint_dir: T.String({ description: 'the run checkpoint directory' }),
    phase: T.Union(GATE_PHASES.map((p) => T.Literal(p)), { description: 'draft (never blocks) or final' }),
    text: T.Optional(T.String({ description: 'the text whose numeric claims are checked' })),
    tex_path: T.Optional(T.String({ description: 'a .tex paper (read through the claim linking) or a text file inside the checkpoint, instead of text' })),
    policy: T.Optional(T.Union([T.Record(T.String(), T.Unknown()), T.String()], { description: 'claim_gate_policy keys over the workflow block (an object or its JSON)' })),
  }),
  run(args, ctx) {
    const { report, path } = claimGate(args, ctx.env);
    return { ...report, report_path: path };
  },
});
