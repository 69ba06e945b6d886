import type { SkillDef } from '../../mcp/tool.ts';
import { generateFigures } from './generate-figures.ts';

const plotSkill: SkillDef = {
  name: 'plot-skill',
  description: "Draw a paper's figures from science_data.json as vector PDF and PNG, with captions and LaTeX figure environments in figures_manifest.json.",
  phases: ['paper'],
  env: ['SVC_CHECKPOINT_DIR', 'VLM_MODEL'],
  // the captions are improved by the vision model when one is configured
  usesModel: true,
  tools: [generateFigures],
};

export default plotSkill;
