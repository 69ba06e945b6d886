import { Type as T } from '@sinclair/typebox';
import { envValue } from '../../core/config/env-vars.ts';
import { createModelClient } from '../../llm/client.ts';
import { LIMITS } from '../../ideas/discussion.ts';
import { generateIdeasWithEngine } from '../../ideas/ma-engine.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { skillConfig } from '../skill-config.ts';

const PaperParam = T.Object(
  {
    title: T.String(),
    abstract: T.String({ default: '' }),
    url: T.String({ default: '' }),
  },
  { additionalProperties: true },
);

export const generateIdeasTool = defineTool({
  name: 'generate_ideas',
  description: `Generate research ideas by a multi-agent discussion with the idea model: n_agents agents with different viewpoints each propose, then for max_discussion_rounds rounds critique each other and revise, then a synthesis writes the idea file: {gap_analysis, ideas: [{title, description, novelty, feasibility, experiment_plan, novelty_score, feasibility_score, clarity_score, overall_score}], primary_metric, higher_is_better, metric_rationale, papers_analyzed, n_agents, discussion_rounds, ma_integration_status}, best idea first. With SVC_IDEA_MA_REAL on, the multi-agent engine runs instead: authors built from a literature snapshot ranked by embedding similarity (SVC_IDEA_MA_EMBED_MODEL), teams of SVC_IDEA_MA_TEAM_SIZE discussing for SVC_IDEA_MA_K rounds with novelty checks against the corpus (recorded in idea_teams.json); ma_integration_status says real_wrap, or reimpl and why it fell back to the discussion loop. Call once per run, with the papers survey found.`,
  params: toolParams({
    topic: T.String({ description: 'the research topic' }),
    papers: T.Array(PaperParam, { default: [], description: 'the papers survey returned' }),
    experiment_context: T.String({ default: '', description: 'the experiment description: goal, resources, constraints' }),
    n_ideas: T.Integer({ default: 3, description: `ideas in the result, 1 to ${LIMITS.nIdeas}` }),
    n_agents: T.Integer({ default: 4, description: `discussing agents, 1 to ${LIMITS.nAgents}` }),
    max_discussion_rounds: T.Integer({ default: 2, description: `critique and revision rounds, 0 to ${LIMITS.rounds}` }),
    max_recursion_depth: T.Integer({ default: 0, description: `accepted for compatibility, 0 to ${LIMITS.recursion}; the built-in loop does not recurse` }),
  }),
  timeoutS: 3600,
  async run(args, ctx) {
    const cfg = skillConfig(ctx.env);
    const client = createModelClient({ cfg });
    const papers = args.papers.map((p) => ({ title: p.title, abstract: p.abstract, url: p.url }));
    return generateIdeasWithEngine(
      {
        topic: args.topic,
        papers,
        experimentContext: args.experiment_context,
        nIdeas: args.n_ideas,
        nAgents: args.n_agents,
        maxDiscussionRounds: args.max_discussion_rounds,
        maxRecursionDepth: args.max_recursion_depth,
      },
      { client, cfg, env: ctx.env, checkpointDir: envValue(ctx.env, 'SVC_CHECKPOINT_DIR'), nodeId: envValue(ctx.env, 'SVC_CURRENT_NODE_ID'), signal: ctx.signal },
    );
  },
});
