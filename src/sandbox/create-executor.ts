/**
 * The executor the configuration asks for (`executor`: SVC_EXECUTOR, profile, saved setting,
 * workflow resources.executor; local by default). Scheduler commands run with `env`'s PATH.
 */
import type { Config } from '../core/config/config.ts';
import { effective } from '../core/config/config.ts';
import type { Env } from '../core/config/env-vars.ts';
import type { Executor, ExecutorKind } from './executor.ts';
import { LocalExecutor } from './local.ts';
import { lsfExecutor } from './lsf.ts';
import { pbsExecutor } from './pbs.ts';
import { SlurmExecutor } from './slurm.ts';
import { systemRunner } from './slurm-runner.ts';

export function createExecutor(cfg: Config, env: Env, stateDir: string): Executor {
  // effective() has already refused a value outside the setting's choices
  const kind = (effective(cfg, 'executor').value ?? 'local') as ExecutorKind;
  const logDir = env.SLURM_LOG_DIR || undefined;
  switch (kind) {
    case 'local':
      return new LocalExecutor(stateDir);
    case 'slurm':
      return new SlurmExecutor({ stateDir, logDir, runner: systemRunner(env, 'Slurm') });
    case 'pbs':
      return pbsExecutor({ stateDir, runner: systemRunner(env, 'PBS') });
    case 'lsf':
      return lsfExecutor({ stateDir, runner: systemRunner(env, 'LSF') });
  }
}
