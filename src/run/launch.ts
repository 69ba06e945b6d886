import { parseLaunchRequest } from './launch-request.ts';
import { requestEnv } from './run-env.ts';
import { type RunHost, startRun } from './start-run.ts';

export type LaunchResult = { ok: true; pid: number; checkpoint_path: string; run_id: string };

/**
 * POST /api/launch: checks the body (every bad field named), creates the checkpoint with
 * experiment.md and launch_config.json, and starts `svc run` on it with the choices in its
 * SVC_* environment only. The child is recorded with the host's supervisor.
 */
export async function launchRun(opts: RunHost & { body: unknown }): Promise<LaunchResult> {
  const { experiment_md, ...choices } = parseLaunchRequest(opts.body);
  const started = await startRun({ ...opts, markdown: experiment_md, choices: requestEnv(choices), profile: choices.profile ?? null, launcher: 'dashboard' });
  return { ok: true, pid: started.pid, checkpoint_path: started.checkpoint_path, run_id: started.run_id };
}
