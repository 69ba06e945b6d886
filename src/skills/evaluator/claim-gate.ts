import { Type as T } from '@sinclair/typebox';
import { GATE_PHASES } from '../../evaluate/claim-gate/gate.ts';
import { claimGate } from '../../evaluate/claim-gate/index.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';

export const claimEvidenceHardGate = defineTool({
  name: 'claim_evidence_hard_gate',
  description:
    "Check the numbers a text claims for the run's metrics against the numbers its nodes reported (results.json measurements, tree.json metrics) and the metric contract's required evidence, within claim_gate_policy.numeric_match.default_tolerance. Writes evaluation/claim_evidence_hard_gate_{phase}.json in the checkpoint and returns that report with report_path. Mode off, warn or strict (SVC_CLAIM_GATE_MODE wins): in strict mode the final phase fails with an error when a block_on finding exists; draft never blocks.",
  params: toolParams({
    checkpoint_dir: T.String({ description: 'the run checkpoint directory' }),
    phase: T.Union(GATE_PHASES.map((p) => T.Literal(p)), { description: 'draft (never blocks) or final' }),
    text: T.Optional(T.String({ description: 'the text whose numeric claims are checked' })),
    tex_path: T.Optional(T.String({ description: 'a .tex or text file inside the checkpoint to check instead of text' })),
    policy: T.Optional(T.Union([T.Record(T.String(), T.Unknown()), T.String()], { description: 'claim_gate_policy keys over the workflow block (an object or its JSON)' })),
  }),
  run(args, ctx) {
    const { report, path } = claimGate(args, ctx.env);
    return { ...report, report_path: path };
  },
});
