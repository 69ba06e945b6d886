/**
 * Which sandbox a reproduction runs in. auto prefers slurm (when `sbatch` exists and a partition
 * is named), then docker (except on a cluster's login node, where containers are not the
 * cluster's way), then apptainer, singularity, and local, taking the first that can run here. A
 * kind asked for by name that cannot run is the fail-loud precondition: an error naming
 * SVC_PHASE1_ALLOW_FALLBACK, and with it set the next kind in that order that can run, said so.
 */
import type { Env } from '../core/config/env-vars.ts';
import { InputError, UnavailableError } from '../core/errors.ts';
import { log } from '../core/log.ts';
import { findBinary } from '../sandbox/detect.ts';
import { FALLBACK_OVERRIDE, type SandboxKind, sandboxProblem } from '../sandbox/preconditions.ts';

export const PREFERENCE: readonly SandboxKind[] = ['slurm', 'docker', 'apptainer', 'singularity', 'local'];
export type RequestedSandbox = SandboxKind | 'auto';

/** Kinds a caller does not allow (forbid_host_filesystem refuses local and slurm), why, and what to do instead. */
export type Refusal = { kinds: readonly SandboxKind[]; why: string; hint: string };

export type SandboxChoice = {
  kind: SandboxKind;
  /** the kind asked for, why it could not run, and the override that let the next one run instead */
  fallback?: { from: SandboxKind; reason: string; override: string };
  /** auto: the kinds passed over before this one, and why */
  passed_over?: string[];
};

/** The submit command of a batch scheduler is here: a login node, where docker is not used. */
export function onLoginNode(env: Env): boolean {
  return ['sbatch', 'qsub', 'bsub'].some((c) => findBinary(c, env) !== null);
}

/**
 * `partitionNamed`: a partition is named (argument, experiment file, SVC_SLURM_PARTITION or
 * settings); `imageNamed`: an image is named for a container kind (argument or its setting).
 */
export async function chooseSandbox(requested: RequestedSandbox, env: Env, partitionNamed: boolean, imageNamed: (kind: SandboxKind) => boolean = () => true, refused: Refusal | null = null): Promise<SandboxChoice> {
  if (refused && requested !== 'auto' && refused.kinds.includes(requested)) throw new InputError(`sandbox_kind ${requested} is refused: ${refused.why}`, refused.hint);
  if (requested === 'auto') {
    const passed: string[] = [];
    for (const kind of PREFERENCE) {
      const why = refused?.kinds.includes(kind) ? `refused: ${refused.why}` : await autoProblem(kind, env, partitionNamed, imageNamed(kind));
      if (why === null) return passed.length ? { kind, passed_over: passed } : { kind };
      passed.push(`${kind}: ${why}`);
    }
    // only refused kinds were left (local always can run)
    throw new InputError(`sandbox_kind auto found no sandbox that can run here and is not refused (${refused?.why}): ${passed.join('; ')}`, refused?.hint);
  }
  const kind = requested as SandboxKind;
  const problem = await sandboxProblem(kind, env);
  if (problem === null) return { kind };
  const rest = PREFERENCE.slice(PREFERENCE.indexOf(kind) + 1);
  if (env[FALLBACK_OVERRIDE] !== '1') throw new UnavailableError(`sandbox ${kind}: ${problem}`, `set ${FALLBACK_OVERRIDE}=1 to fall back to the next sandbox that can run (${rest.join(', ')})`);
  for (const next of rest) {
    if (refused?.kinds.includes(next) || (await autoProblem(next, env, true)) !== null) continue;
    log.warn(`sandbox ${kind}: ${problem}; running in ${next} instead because ${FALLBACK_OVERRIDE}=1`);
    return { kind: next, fallback: { from: kind, reason: problem, override: FALLBACK_OVERRIDE } };
  }
  if (refused) throw new UnavailableError(`sandbox ${kind}: ${problem}; no other sandbox that is not refused (${refused.why}) can run`, refused.hint);
  // local always can: the loop above has returned
  throw new Error('no sandbox can run, not even local');
}

async function autoProblem(kind: SandboxKind, env: Env, partitionNamed: boolean, imageNamed = true): Promise<string | null> {
  if (kind === 'slurm') {
    if (findBinary('sbatch', env) === null) return 'sbatch is not installed';
    if (!partitionNamed) return 'no partition is named (SVC_SLURM_PARTITION, the experiment file or the partition argument)';
  }
  if (kind === 'docker' && onLoginNode(env)) return 'this is a cluster login node (a batch scheduler is installed)';
  const problem = await sandboxProblem(kind, env);
  if (problem !== null) return problem;
  // a stock image lacks what a reproduction needs (its interpreter, its libraries): auto takes a container only with a named one
  if (kind !== 'slurm' && kind !== 'local' && !imageNamed) return 'no image is named (container_image or its setting)';
  return null;
}
