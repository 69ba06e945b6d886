import { defineCommand } from 'citty';
import { checkpointsDir, loadEnv } from '../core/config/environment.ts';
import { executeDelete, planDelete } from '../core/checkpoint/remove.ts';
import { InputError } from '../core/errors.ts';
import { checkpointAgentName, checkpointMemoryEnv } from '../memory/checkpoint-agent.ts';
import { deleteAgentNamed } from '../memory/deploy/agents.ts';
import { print, warn } from './output.ts';

export default defineCommand({
  meta: { description: 'Delete a checkpoint and its experiments directory' },
  args: {
    checkpoint: { type: 'positional', required: true, description: 'checkpoint id or directory, inside the checkpoints directory' },
    'checkpoints-dir': { type: 'string', description: 'the checkpoints directory (default: ./workspace/checkpoints)' },
    yes: { type: 'boolean', alias: 'y', description: 'do not ask; required when not on a terminal' },
  },
  async run({ args }) {
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
    // the memory agent is named from the checkpoint's real path and its workflow: taken while it is still there
    const env = loadEnv({ checkpointDir: plan.checkpoint });
    const agent = checkpointAgentName(plan.checkpoint, env);
    const memoryEnv = checkpointMemoryEnv(plan.checkpoint, env);
    executeDelete(plan);
    print(`deleted ${what}`);
    // a memory backend that is down does not undo or block the delete: a warning says what is left
    const memory = await deleteAgentNamed(memoryEnv, agent);
    if (memory.warning) warn(memory.warning);
    else if (memory.deleted) print(`deleted memory agent ${memory.agent}`);
  },
});
