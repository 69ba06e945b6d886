import type { SkillDef } from '../../mcp/tool.ts';
import { vlmReviewFigures } from './review-figures.ts';
import { reviewFiguresAllTool, reviewFigureTool, reviewTableTool } from './review-single.ts';

const vlmSkill: SkillDef = {
  name: 'vlm-skill',
  description: 'Show rendered figures and tables to a vision model (VLM_MODEL) and return its review: a score, the issues it sees, what to change; the figures as a whole, one figure, every figure on its own at once, or the tables.',
  phases: ['paper', 'reproduce'],
  env: ['SVC_CHECKPOINT_DIR', 'VLM_MODEL'],
  usesModel: true,
  tools: [vlmReviewFigures, reviewFigureTool, reviewFiguresAllTool, reviewTableTool],
};

export default vlmSkill;
