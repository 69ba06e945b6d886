import type { SkillDef } from '../../mcp/tool.ts';
import { generateIdeasTool } from './generate-ideas.ts';
import { surveyTool } from './survey.ts';
import { RETRIEVAL_ENV } from '../../ideas/retrieval-settings.ts';

const ideaSkill: SkillDef = {
  name: 'idea-skill',
  description: 'Survey the literature on a topic and generate research ideas by a multi-agent discussion; the best idea becomes the root of the search.',
  phases: ['bfts'],
  env: [
    ...RETRIEVAL_ENV,
    'SVC_IDEA_MA_REAL',
    'SVC_IDEA_MA_LIVE',
    'SVC_IDEA_MA_K',
    'SVC_IDEA_MA_TEAM_SIZE',
    'SVC_IDEA_MA_N_AUTHORS',
    'SVC_IDEA_MA_N_PAPERS',
    'SVC_IDEA_MA_MAX_TEAMS',
    'SVC_IDEA_MA_EMBED_MODEL',
    'SVC_MODEL_IDEA',
    'SVC_CHECKPOINT_DIR',
    'SVC_CURRENT_NODE_ID',
  ],
  usesModel: true,
  tools: [surveyTool, generateIdeasTool],
};

export default ideaSkill;
