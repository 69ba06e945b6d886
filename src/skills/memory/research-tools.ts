import { Type as T } from '@sinclair/typebox';
import { NODE_KINDS, type NodeKind, RESEARCH_KINDS } from '../../memory/research/entries.ts';
import { readExperimentContext } from '../../memory/research/experiment-context.ts';
import { buildVerifiedContext } from '../../memory/research/verified-context.ts';
import { hasArtifacts } from '../../memory/research/writer.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { AncestorIdsParam, checkpointMemory, LimitParam, logRead } from './context.ts';

export const searchResearchMemory = defineTool({
  name: 'search_research_memory',
  description:
    "Search the typed memory (results, failures, procedures, reflections, reproducibility events) of the given ancestor nodes, best match first; never siblings' or descendants'. kinds narrows the kinds; require_artifacts keeps entries that point at files. Returns {results: [{entry_id, node_id, kind, text, metadata, score}]}.",
  params: toolParams({
    query: T.String({ description: 'words to look for' }),
    ancestor_ids: AncestorIdsParam,
    kinds: T.Array(T.Union(NODE_KINDS.map((k) => T.Literal(k))), {
      default: [],
      description: `kinds to return, of ${NODE_KINDS.join(', ')}; empty: every typed kind (not node_scope notes)`,
    }),
    require_artifacts: T.Boolean({ default: false, description: 'only entries with artifact_refs (whether the files still match is what get_verified_context checks)' }),
    limit: LimitParam,
  }),
  async run(args, ctx) {
    const kinds: readonly NodeKind[] = args.kinds.length > 0 ? args.kinds : RESEARCH_KINDS;
    const found = await checkpointMemory(ctx).search(args.query, args.ancestor_ids, kinds, args.limit, (e) => !args.require_artifacts || hasArtifacts(e.metadata));
    const results = found.map((e) => ({ entry_id: e.entry_id, node_id: e.node_id, kind: e.kind, text: e.text, metadata: e.metadata, score: e.score }));
    logRead(ctx, args.query, args.ancestor_ids, args.limit, results.map((r) => ({ src_node_id: r.node_id, entry_id: r.entry_id, score: r.score })));
    return { results };
  },
});

export const getVerifiedContext = defineTool({
  name: 'get_verified_context',
  description:
    "Evidence for writing about the given ancestors' work: their experiment results, each checked against disk now. A result is verified only when it has artifacts and every one exists with its recorded sha256, and no rerun refuted it; reproduced results come first. Returns {purpose, ancestor_ids, verified, unverified (with reasons), limitations (failure cases)}.",
  params: toolParams({
    ancestor_ids: AncestorIdsParam,
    purpose: T.String({ default: 'paper', minLength: 1, maxLength: 100, description: 'what the context is for (paper, figure, ...); recorded in the result and the access log' }),
    limit: T.Optional(T.Integer({ minimum: 1, maximum: 1000, description: 'most verified results to return; all when omitted' })),
  }),
  async run(args, ctx) {
    const context = await buildVerifiedContext(checkpointMemory(ctx), args.ancestor_ids, args.purpose, args.limit ?? null);
    logRead(ctx, `verified_context:${args.purpose}`, args.ancestor_ids, args.limit ?? null, context.verified.map((c) => ({ src_node_id: c.node_id, entry_id: c.entry_id })));
    return context;
  },
});

export const getExperimentContext = defineTool({
  name: 'get_experiment_context',
  description:
    "The experiment's stable facts from the checkpoint's core memory: {experiment_goal, primary_metric, higher_is_better, metric_rationale, hardware_spec, selected_idea}; a field not recorded is null.",
  params: toolParams({}),
  run: (_args, ctx) => readExperimentContext(checkpointMemory(ctx)),
});
