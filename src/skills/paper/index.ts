import type { SkillDef } from '../../mcp/tool.ts';
import { checkFormatTool } from './check-format.ts';
import { injectCodeAvailabilityTool } from './code-availability.ts';
import { compilePaperTool } from './compile-paper.ts';
import { getTemplate, listVenuesTool } from './venue-tools.ts';

const paperSkill: SkillDef = {
  name: 'paper-skill',
  description: "Write the run's paper in LaTeX: venue templates, compiling with latexmk, checking the format against the venue, the code availability statement.",
  phases: ['paper'],
  env: ['SVC_CHECKPOINT_DIR'],
  usesModel: false,
  tools: [listVenuesTool, getTemplate, compilePaperTool, checkFormatTool, injectCodeAvailabilityTool],
};

export default paperSkill;
