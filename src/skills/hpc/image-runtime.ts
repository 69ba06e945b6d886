/**
 * The apptainer or singularity program the singularity tools put in their job scripts: apptainer
 * when both are installed. None is the fail-loud precondition; with SVC_PHASE1_ALLOW_FALLBACK=1 a
 * command runs without a container and the result carries a warning. Building or pulling an image
 * has no such fallback: there is no image without the runtime.
 */
import { log } from '../../core/log.ts';
import { UnavailableError } from '../../core/errors.ts';
import { findBinary } from '../../sandbox/detect.ts';
import { FALLBACK_OVERRIDE } from '../../sandbox/preconditions.ts';
import type { ToolContext } from '../../mcp/tool.ts';

export type ImageRuntime = 'apptainer' | 'singularity';

const MISSING = 'neither apptainer nor singularity is installed';

function foundRuntime(env: ToolContext['env']): ImageRuntime | null {
  if (findBinary('apptainer', env) !== null) return 'apptainer';
  return findBinary('singularity', env) !== null ? 'singularity' : null;
}

/** For tools that run a command: the runtime, or null and the warning when the override allows none. */
export function runtimeOrFallback(tool: string, env: ToolContext['env']): { runtime: ImageRuntime } | { runtime: null; warning: string } {
  const runtime = foundRuntime(env);
  if (runtime) return { runtime };
  if (env[FALLBACK_OVERRIDE] !== '1') throw new UnavailableError(`${tool}: ${MISSING}`, `install apptainer, or set ${FALLBACK_OVERRIDE}=1 to run the command without a container`);
  const warning = `${tool}: ${MISSING}; the command runs without a container because ${FALLBACK_OVERRIDE}=1`;
  log.warn(warning);
  return { runtime: null, warning };
}

/** For tools that build or pull an image: the runtime, whatever the override says. */
export function requireRuntime(tool: string, env: ToolContext['env']): ImageRuntime {
  const runtime = foundRuntime(env);
  if (runtime) return runtime;
  const hint = env[FALLBACK_OVERRIDE] === '1' ? `install apptainer: ${FALLBACK_OVERRIDE}=1 runs commands without a container but cannot make an image` : 'install apptainer';
  throw new UnavailableError(`${tool}: ${MISSING}`, hint);
}
