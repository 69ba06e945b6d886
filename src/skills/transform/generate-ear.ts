import { Type as T } from '@sinclair/typebox';
import { EAR_MANIFEST_FILE, generateEar as generate } from '../../ear/generate.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { checkpointArg } from './curate-ear.ts';
import { transformModel } from './model.ts';

export const generateEar = defineTool({
  name: 'generate_ear',
  description:
    "Fill the run's artifact bundle directory <checkpoint_dir>/ear/ from science_data.json (run nodes_to_science_data first): code/<node>/ holds the best and the baseline configuration's code (their work-dir files, less run records and outputs), " +
    'data/ each configuration\'s results.json and science_data.json, RESULTS.md tables generated from science_data.json, README.md written by the model (a deterministic one when it cannot), and publish.yaml the default policy unless the author has one. ' +
    `Files of ear/ it does not make are kept. Writes ${EAR_MANIFEST_FILE} in the checkpoint and returns it: {ear_dir, generated_at, science_data, code, files, readme, publish_yaml, kept, notes}.`,
  params: toolParams({
    checkpoint_dir: T.Optional(T.String({ description: 'the run checkpoint (default: SVC_CHECKPOINT_DIR)' })),
    llm_model: T.Optional(T.String({ description: "stands in for the workflow's llm.model (the environment still wins); empty: the run's paper model" })),
    llm_base_url: T.Optional(T.String({ description: "stands in for the workflow's llm.base_url; empty: as configured" })),
  }),
  timeoutS: 1800,
  async run(args, ctx) {
    const dir = checkpointArg(args.checkpoint_dir, ctx.env);
    return generate(dir, transformModel(ctx, { model: args.llm_model, baseUrl: args.llm_base_url }), ctx.signal);
  },
});
