import type { SkillDef } from '../../mcp/tool.ts';
import { claimEvidenceHardGate } from './claim-gate.ts';
import { makeMetricSpec } from './make-metric-spec.ts';
import { evidenceGroundedSemanticReview } from './semantic-review.ts';

const evaluatorSkill: SkillDef = {
  name: 'evaluator-skill',
  description: "Decide the metric a run is judged by and freeze it in the checkpoint's metric contract; check a paper's numeric claims against what the nodes reported, and the wording of its claims against that evidence.",
  phases: ['bfts'],
  env: ['SVC_CHECKPOINT_DIR', 'SVC_MODEL_EVAL', 'SVC_CLAIM_GATE_MODE', 'SVC_COMPARISON_SCOPE'],
  // make_metric_spec asks the eval model when the experiment text names no metric; the semantic review always does
  usesModel: true,
  tools: [makeMetricSpec, claimEvidenceHardGate, evidenceGroundedSemanticReview],
};

export default evaluatorSkill;
