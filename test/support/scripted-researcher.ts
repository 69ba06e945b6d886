import type { ReplyStep } from './model-server.ts';
import { agentStep } from './scripted-agent.ts';
import { replicatorStep } from './scripted-replicator.ts';
import { figureCaptionReply, figureReviewReply, singleFigureReviewReply, tableReviewReply } from './scripted-figures.ts';
import { ideaAgentReply, ideaDiscussionReply, ideaMaProposeReply, ideaMaSynthesisReply, ideaMaTurnReply, ideaSynthesisReply } from './scripted-ideas.ts';
import { judgeReply, metricSpecReply } from './scripted-judge.ts';
import { judgeLeafReply } from './scripted-judge-ors.ts';
import { expandReply, lineageReply, rootIdeaReply, selectReply } from './scripted-orchestrator.ts';
import { configurationsReply, earReadmeReply, keywordsReply } from './scripted-transform.ts';
import { paperAbstractReply, paperRefineReply, paperReviewReply, paperSectionReply } from './scripted-paper.ts';
import { type OpenAIChatRequest, promptName, textOfRoles } from './scripted-request.ts';
import { metaReviewReply, paperReflectionReply, paperReviewerReply } from './scripted-review.ts';
import { rubricAuditReply, rubricAxesReply, rubricLeavesReply, rubricOneStageReply } from './scripted-rubric.ts';
import { semanticReviewReply } from './scripted-semantic-review.ts';
import { nextQueriesReply } from './scripted-web.ts';

export type { OpenAIChatRequest } from './scripted-request.ts';

/**
 * A deterministic model that does the demo research (fewer comparisons sorting a seeded array)
 * the way a competent researcher would, for any prompt of the run. It dispatches on the prompt
 * name of the first system message (`<!-- prompt: group/name -->`) and reads only the request, so
 * the same request always gets the same answer (a recorded run replays). An unknown prompt gets
 * a text answer naming it, which a test sees.
 */
export function researcherReply(body: OpenAIChatRequest): ReplyStep {
  const name = promptName(body);
  switch (name) {
    case 'agent/system':
      return agentStep(body);
    case 'paper_re/replicator':
      return replicatorStep(body);
    case 'evaluator/judge':
      return { text: judgeReply(body) };
    case 'evaluator/metric_spec':
      return { text: metricSpecReply(body) };
    case 'evaluator/semantic_review':
      return { text: semanticReviewReply(body) };
    case 'orchestrator/bfts_select':
    case 'orchestrator/bfts_expand_select':
      return { text: selectReply(body) };
    case 'orchestrator/bfts_expand':
      return { text: expandReply(body) };
    case 'orchestrator/lineage_decision':
      return { text: lineageReply() };
    case 'orchestrator/root_idea_selector':
      return { text: rootIdeaReply() };
    case 'idea/agent':
      return { text: ideaAgentReply() };
    case 'idea/discussion':
      return { text: ideaDiscussionReply() };
    case 'idea/synthesis':
      return { text: ideaSynthesisReply() };
    case 'idea/ma_propose':
      return { text: ideaMaProposeReply(textOfRoles(body, ['system'])) };
    case 'idea/ma_turn':
      return { text: ideaMaTurnReply(textOfRoles(body, ['system'])) };
    case 'idea/ma_synthesis':
      return { text: ideaMaSynthesisReply(textOfRoles(body, ['system'])) };
    case 'plot/figure_caption':
      return { text: figureCaptionReply(body) };
    case 'vlm/figure_review':
      return { text: figureReviewReply(body) };
    case 'vlm/single_figure_review':
      return { text: singleFigureReviewReply(body) };
    case 'vlm/table_review':
      return { text: tableReviewReply(body) };
    case 'web/next_queries':
      return { text: nextQueriesReply(body) };
    case 'pipeline/keywords':
      return { text: keywordsReply(body) };
    case 'transform/configurations':
      return { text: configurationsReply(body) };
    case 'transform/ear_readme':
      return { text: earReadmeReply(body) };
    case 'paper/section':
    case 'paper/revise':
      return { text: paperSectionReply(body) };
    case 'paper/review':
      return { text: paperReviewReply() };
    case 'paper/abstract':
      return { text: paperAbstractReply(body) };
    case 'paper/refine':
      return { text: paperRefineReply(body) };
    case 'paper/reviewer':
      return { text: paperReviewerReply(body) };
    case 'paper/reviewer_reflection':
      return { text: paperReflectionReply(body) };
    case 'paper/meta_review':
      return { text: metaReviewReply(body) };
    case 'replicate/rubric_axes':
      return { text: rubricAxesReply() };
    case 'replicate/rubric_leaves':
      return { text: rubricLeavesReply(body) };
    case 'replicate/rubric_one_stage':
      return { text: rubricOneStageReply(body) };
    case 'replicate/rubric_audit':
      return { text: rubricAuditReply(body) };
    case 'grading/judge_leaf':
      return { text: judgeLeafReply(body) };
    default:
      if (/one zero-based index/i.test(textOfRoles(body, ['system', 'user']))) return { text: selectReply(body) };
      return { text: `scripted researcher: unknown prompt ${name === null ? '(the first system message has no <!-- prompt: group/name --> line)' : `'${name}'`}` };
  }
}
