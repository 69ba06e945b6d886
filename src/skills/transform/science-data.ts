import { Type as T } from '@sinclair/typebox';
import { buildScienceData, SCIENCE_DATA_FILE } from '../../science/build.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { transformModel } from './model.ts';

export const nodesToScienceData = defineTool({
  name: 'nodes_to_science_data',
  description:
    `Turn the search's nodes (the checkpoint's nodes_tree.json) into ${SCIENCE_DATA_FILE} beside it: every successful node with real data is a configuration with the params and measurements of its own results.json (a node whose results.json is missing or damaged is left out with a note); ` +
    'the best configuration and the baseline (the node labelled baseline, else the root draft) by the primary metric; the anchor values a paper quotes (<node_id>.<metric>, best.<metric>, baseline.<metric>, improvement.<metric>.ratio and .percent, count.configurations); and the experiment context. ' +
    'Every number comes from results.json files; the model only names the configurations and summarises the method, and deterministic names stand in when it cannot. ' +
    'Returns {science_data_path, primary_metric, higher_is_better, configurations, best, baseline, notes}.',
  params: toolParams({
    nodes_json_path: T.String({ minLength: 1, description: "the checkpoint's nodes_tree.json (the pipeline pre-flight writes it)" }),
    llm_model: T.Optional(T.String({ description: "stands in for the workflow's llm.model (the environment still wins); empty: the run's paper model" })),
    llm_base_url: T.Optional(T.String({ description: "stands in for the workflow's llm.base_url; empty: as configured" })),
    primary_metric: T.Optional(T.String({ description: 'the measurement configurations are ranked by; empty: metric_contract.json, else evaluation_criteria.json, else idea.json' })),
    higher_is_better: T.Optional(T.Boolean({ default: true, description: 'direction of primary_metric when it is given; a metric from the checkpoint keeps its recorded direction' })),
  }),
  timeoutS: 900,
  async run(args, ctx) {
    const model = transformModel(ctx, { model: args.llm_model, baseUrl: args.llm_base_url });
    return buildScienceData({ nodesJsonPath: args.nodes_json_path, primaryMetric: args.primary_metric, higherIsBetter: args.higher_is_better ?? true, model, signal: ctx.signal });
  },
});
