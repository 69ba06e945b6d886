import { defineCommand } from 'citty';
import { checkpointsDir } from '../core/config/environment.ts';
import { executeDelete, planDelete } from '../core/checkpoint/remove.ts';
import { InputError } from '../core/errors.ts';
import { print } from './output.ts';

export default defineCommand({
  meta: { description: 'Delete a checkpoint and its experiments directory' },
  args: {
    checkpoint: { type: 'positional', required: true, description: 'checkpoint id or directory, inside the checkpoints directory' },
    'checkpoints-dir': { type: 'string', description: 'the checkpoints directory (default: ./workspace/checkpoints)' },
    yes: { type: 'boolean', alias: 'y', description: 'do not ask; required when not on a terminal' },
  },
  run({ args }) {
    const root = checkpointsDir(args['checkpoints-dir']);
    const plan = planDelete(args.checkpoint, root);
    const what = plan.experiments ? `${plan.checkpoint} and ${plan.experiments}` : plan.checkpoint;
    if (!args.yes) {
      if (!process.stdin.isTTY) throw new InputError(`not deleting ${plan.checkpoint} without confirmation`, 'pass -y when not on a terminal');
      const answer = prompt(`Delete ${what}? [y/N]`);
      if (!/^y(es)?$/i.test(answer?.trim() ?? '')) {
        print('nothing deleted');
        return 1;
      }
    }
    executeDelete(plan);
    print(`deleted ${what}`);
  },
});
