import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../core/config/config.ts';
import { definedEnv } from '../core/config/environment.ts';
import type { Env } from '../core/config/env-vars.ts';
import { selfCommand } from '../mcp/self-command.ts';
import { writeFileAtomic } from '../core/atomic.ts';
import { checkpointWorkflowText } from './checkpoint-workflow.ts';
import { createCheckpoint } from './create-checkpoint.ts';
import { buildLaunchConfig, type Launcher, writeLaunchConfig } from './launch-config.ts';
import { type RunChild, spawnRun } from './spawn-run.ts';
import type { RunSupervisor } from './supervisor.ts';

/** Where and how runs are started; shared by the dashboard, sub-experiments and the orchestrator. */
export type RunHost = {
  checkpointsRoot: string;
  /** the environment the run inherits (with its keys: the run needs them); choices are laid over it */
  env: Env;
  cwd: string;
  supervisor: RunSupervisor;
  /** the svc program; by default this same binary */
  program?: string[];
};

export type StartRunOptions = RunHost & {
  markdown: string;
  /** SVC_* choices; they go to the child's environment and, resolved, to launch_config.json */
  choices: Record<string, string>;
  /** variables only the child sees (an API key): never written to disk */
  secretEnv?: Record<string, string>;
  profile: string | null;
  launcher: Launcher;
  /** writes what the run finds in its checkpoint at start (meta.json, a pinned idea.json) */
  prepare?: (dir: string, runId: string) => void;
  /** a checkpoint whose workflow.yaml (and the templates it names) the run takes over: a sub-experiment searches as its parent did */
  workflowFrom?: string;
};

export type StartedRun = { ok: true; pid: number; checkpoint_path: string; run_id: string; child: RunChild };

/**
 * What a run inherits from its launcher's environment: everything (its model keys included)
 * except the checkpoint the launcher itself may be pinned to, and the dashboard's own token,
 * which no run has a use for.
 */
export function inheritedEnv(env: Env): Record<string, string> {
  const out = definedEnv(env);
  delete out.SVC_CHECKPOINT_DIR;
  delete out.SVC_GUI_TOKEN;
  return out;
}

/** The svc program a launcher starts runs with: this binary, or `bun src/main.ts` from source. */
export function svcProgram(host: Pick<RunHost, 'program'>): string[] {
  if (host.program) return host.program;
  const self = selfCommand([]);
  return [self.command, ...self.args];
}

/**
 * Creates the checkpoint of a new run, snapshots its choices into launch_config.json and starts
 * `svc run <ckpt>/experiment.md` with SVC_CHECKPOINT_DIR naming it, so the run adopts it. The
 * configuration is read before anything is created: a broken one leaves no empty checkpoint.
 */
export async function startRun(opts: StartRunOptions): Promise<StartedRun> {
  const env = { ...inheritedEnv(opts.env), ...opts.choices };
  const inherited = opts.workflowFrom ? join(opts.workflowFrom, 'workflow.yaml') : undefined;
  const configPath = inherited && existsSync(inherited) ? inherited : undefined;
  const cfg = loadConfig({ env, cwd: opts.cwd, checkpoints: opts.checkpointsRoot, configPath, profile: opts.profile ?? undefined, hideSecrets: true });
  const record = buildLaunchConfig(cfg, opts.profile, opts.launcher);
  const { dir, runId } = createCheckpoint(opts.checkpointsRoot, opts.markdown);
  try {
    // the run adopts this copy (svc run keeps a workflow.yaml its checkpoint already holds)
    if (configPath) writeFileAtomic(join(dir, 'workflow.yaml'), checkpointWorkflowText(cfg.workflow, dir));
    opts.prepare?.(dir, runId);
    writeLaunchConfig(dir, record);
    const child = await spawnRun({
      kind: opts.launcher === 'sub-experiment' ? 'sub-experiment' : 'launch',
      program: svcProgram(opts),
      args: ['run', join(dir, 'experiment.md')],
      checkpoint: dir,
      env: { ...env, ...opts.secretEnv, SVC_CHECKPOINT_DIR: dir },
      cwd: opts.cwd,
    });
    opts.supervisor.track(child);
    return { ok: true, pid: child.pid, checkpoint_path: dir, run_id: runId, child };
  } catch (err) {
    // nothing runs in it: a checkpoint without a run would only confuse the list
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
