import { dirname } from 'node:path';
import { clearStaged, copyStagedUploads, requireStaged } from '../core/checkpoint/upload-staging.ts';
import { parseLaunchRequest } from './launch-request.ts';
import { requestEnv } from './run-env.ts';
import { type RunHost, startRun } from './start-run.ts';

export type LaunchResult = { ok: true; pid: number; checkpoint_path: string; run_id: string };

/**
 * POST /api/launch: checks the body (every bad field named), creates the checkpoint with
 * experiment.md, launch_config.json and the files staged for it, and starts `svc run` on it with
 * the choices in its SVC_* environment only. The child is recorded with the host's supervisor.
 */
export async function launchRun(opts: RunHost & { body: unknown }): Promise<LaunchResult> {
  const { experiment_md, staging, ...choices } = parseLaunchRequest(opts.body);
  // the workspace is the checkpoints directory's parent, as the dashboard has it
  const staged = staging === undefined ? null : requireStaged(dirname(opts.checkpointsRoot), staging);
  const started = await startRun({
    ...opts,
    markdown: experiment_md,
    choices: requestEnv(choices),
    profile: choices.profile ?? null,
    launcher: 'dashboard',
    prepare: staged === null ? undefined : (dir) => copyStagedUploads(staged, dir),
  });
  if (staged !== null) clearStaged(staged);
  return { ok: true, pid: started.pid, checkpoint_path: started.checkpoint_path, run_id: started.run_id };
}
