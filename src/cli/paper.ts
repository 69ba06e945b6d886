import { defineCommand } from 'citty';
import { runPostSearch } from '../run/post-search.ts';
import { print } from './output.ts';
import { paperOverrides } from './paper-args.ts';
import { printPipelineEnd } from './run-end.ts';

export default defineCommand({
  meta: { description: "Run the post-search pipeline of a checkpoint: the workflow's pipeline stages, in dependency order" },
  args: {
    checkpoint_dir: { type: 'positional', required: true, description: 'checkpoint directory (or its id in the checkpoints directory)' },
    config: { type: 'string', description: 'workflow file, when the checkpoint holds none' },
    stage: { type: 'string', description: 'run this one stage only (the others are read from their output files)' },
    experiment: { type: 'string', description: 'experiment Markdown the paper stages describe, instead of the run context' },
    rubric: { type: 'string', description: 'review rubric id (review_paper)' },
    'fewshot-mode': { type: 'string', description: 'static or dynamic few-shot reviews (review_paper)' },
    'num-reviews-ensemble': { type: 'string', description: 'reviews in the ensemble (review_paper)' },
    'num-reflections': { type: 'string', description: 'reflection rounds per review (review_paper)' },
  },
  async run({ args }) {
    const overrides = paperOverrides(args);
    const r = await runPostSearch({ checkpoint: args.checkpoint_dir, configPath: args.config, stage: args.stage, overrides }, process.env, process.cwd(), (line) => process.stderr.write(`${line}\n`));
    print(`checkpoint: ${r.checkpointDir}`);
    printPipelineEnd(r.checkpointDir, r);
    return r.failure ? 1 : 0;
  },
});
