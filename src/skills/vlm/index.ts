import type { SkillDef } from '../../mcp/tool.ts';
import { vlmReviewFigures } from './review-figures.ts';

const vlmSkill: SkillDef = {
  name: 'vlm-skill',
  description: 'Show rendered figures to a vision model (VLM_MODEL) and return its review: a score, the issues it sees, what to change.',
  phases: ['paper', 'reproduce'],
  env: ['SVC_CHECKPOINT_DIR', 'VLM_MODEL'],
  usesModel: true,
  tools: [vlmReviewFigures],
};

export default vlmSkill;
