import { defineCommand } from 'citty';
import { executeRun } from '../run/execute.ts';
import { printRunEnd } from './run-end.ts';

export default defineCommand({
  meta: { description: 'Continue a run from its checkpoint: pending, failed and interrupted nodes run again' },
  args: {
    checkpoint_dir: { type: 'positional', required: true, description: 'checkpoint directory (or its id in the checkpoints directory)' },
    config: { type: 'string', description: 'workflow file, when the checkpoint holds none' },
  },
  async run({ args }) {
    const end = await executeRun({ kind: 'resume', checkpoint: args.checkpoint_dir, configPath: args.config }, process.env, process.cwd());
    return printRunEnd(end);
  },
});
