import { defineCommand } from 'citty';
import { PROFILE_NAMES } from '../core/config/profiles.ts';
import { executeRun } from '../run/execute.ts';
import { carriedWorkflow, MA_FLAGS, runEnvironment } from './run-args.ts';
import { printRunEnd } from './run-end.ts';

const maArgs = Object.fromEntries(Object.entries(MA_FLAGS).map(([flag, name]) => [flag, { type: 'string', description: `sets ${name}`, valueHint: 'N' }] as const));

export default defineCommand({
  meta: { description: 'Run a research experiment: ideas, then the tree search of experiments' },
  args: {
    experiment: { type: 'positional', required: true, description: 'the experiment description (Markdown)' },
    config: { type: 'string', description: 'workflow file laid over the bundled one' },
    profile: { type: 'string', description: `settings for where it runs: ${PROFILE_NAMES.join(', ')} (SVC_PROFILE)` },
    'ma-live': { type: 'boolean', description: 'multi-agent idea engine: take a live literature snapshot (SVC_IDEA_MA_LIVE); --no-ma-live for the cached one' },
    ...maArgs,
    replay: { type: 'string', description: 'answer every model call from this recorded cassette (SVC_BACKEND=replay, SVC_REPLAY_CASSETTE), offline, under the workflow it was recorded with unless --config', valueHint: 'cassette.jsonl' },
  },
  async run({ args }) {
    const env = runEnvironment(args, process.env, process.cwd());
    const profile = args.profile ?? (env.SVC_PROFILE || undefined);
    const carried = args.replay !== undefined && args.config === undefined ? carriedWorkflow(env.SVC_REPLAY_CASSETTE ?? '') : null;
    try {
      const end = await executeRun({ kind: 'new', experimentFile: args.experiment, configPath: args.config ?? carried?.path, profile }, env, process.cwd());
      return printRunEnd(end);
    } finally {
      carried?.remove();
    }
  },
});
