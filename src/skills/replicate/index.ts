import type { SkillDef } from '../../mcp/tool.ts';
import { auditRubricTool } from './audit-rubric.ts';
import { generateRubricTool, suggestTargetLeafCountTool } from './generate-rubric.ts';

const replicateSkill: SkillDef = {
  name: 'replicate-skill',
  description: "The rubric a reproduction of the paper is graded by, as PaperBench grades: generated from the paper by the rubric model (axes with weights, then their leaves; deterministic at temperature 0 with a seed), audited for vague, duplicate, unsupported and unverifiable leaves, and the leaf count a paper of its length calls for.",
  phases: ['paper'],
  env: ['SVC_CHECKPOINT_DIR', 'SVC_MODEL_RUBRIC_GEN', 'SVC_MODEL_RUBRIC_AUDIT', 'SVC_RUBRIC_GEN_TARGET_LEAVES', 'SVC_RUBRIC_GEN_TEMPERATURE', 'SVC_RUBRIC_GEN_TWO_STAGE'],
  usesModel: true,
  tools: [generateRubricTool, auditRubricTool, suggestTargetLeafCountTool],
};

export default replicateSkill;
