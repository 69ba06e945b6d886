import type { SkillDef } from '../../mcp/tool.ts';
import { checkFormatTool } from './check-format.ts';
import { injectCodeAvailabilityTool } from './code-availability.ts';
import { compilePaperTool } from './compile-paper.ts';
import { finalizePaperTool } from './finalize.ts';
import { linkPaperClaimsTool } from './link-claims.ts';
import { mergeReviewsTool } from './merge-reviews.ts';
import { paperRefineTool } from './refine.ts';
import { listRubricsTool, reviewCompiledPaperTool } from './review.ts';
import { getTemplate, listVenuesTool } from './venue-tools.ts';
import { generateSectionTool, reviewSectionTool, reviseSectionTool, writePaperIterativeTool } from './writing.ts';

const paperSkill: SkillDef = {
  name: 'paper-skill',
  description: "Write the run's paper in LaTeX: sections written, reviewed and revised by the paper model with every number a claim anchor filled from science_data.json, venue templates, compiling with latexmk, checking the format against the venue, the code availability statement, the review of the compiled paper with a venue's reviewer rubric, the figure review folded into it, every number of the paper linked to the data it comes from, the paper refined with the review, every claim anchor kept, and the final paper made once the claim gate lets it.",
  phases: ['paper'],
  env: ['SVC_CHECKPOINT_DIR', 'SVC_MODEL_PAPER', 'SVC_PAPER_LANGUAGE', 'SVC_RUBRIC', 'SVC_FEWSHOT_MODE', 'SVC_NUM_REVIEWS_ENSEMBLE', 'SVC_NUM_REFLECTIONS'],
  // the sections are written by the paper model; the tools around them are deterministic
  usesModel: true,
  tools: [listVenuesTool, getTemplate, generateSectionTool, reviewSectionTool, reviseSectionTool, writePaperIterativeTool, compilePaperTool, checkFormatTool, injectCodeAvailabilityTool, reviewCompiledPaperTool, mergeReviewsTool, linkPaperClaimsTool, paperRefineTool, finalizePaperTool, listRubricsTool],
};

export default paperSkill;
