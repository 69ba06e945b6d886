import type { Env } from '../core/config/env-vars.ts';
import { InputError, UnavailableError } from '../core/errors.ts';
import { findBinary } from '../sandbox/detect.ts';
import { resolveImage } from '../sandbox/image.ts';
import type { NodeExec } from '../sandbox/node-command.ts';
import { checkSandbox, type SandboxKind } from '../sandbox/preconditions.ts';

export const BUILD_SANDBOX_KINDS = ['auto', 'local', 'docker', 'apptainer', 'singularity'] as const;

export type BuildSandbox = {
  kind: Exclude<SandboxKind, 'slurm'>;
  /** how the agent's commands run; none on the local sandbox */
  exec?: NodeExec;
  /** said when the asked sandbox was missing and SVC_PHASE1_ALLOW_FALLBACK let the build run locally */
  warning?: string;
  /** for the agent's prompt: where its commands run */
  description: string;
};

/**
 * Where the agent's commands run. auto: the image's runtime when an image is given (docker for
 * container_image, apptainer for apptainer_image), else this machine. A missing runtime fails loud
 * unless SVC_PHASE1_ALLOW_FALLBACK=1. The image must be present already: the build neither pulls
 * nor gives the container a network, so what the agent runs is what the bundle holds.
 */
export async function buildSandbox(asked: string, containerImage: string | undefined, apptainerImage: string | undefined, env: Env): Promise<BuildSandbox> {
  if (!(BUILD_SANDBOX_KINDS as readonly string[]).includes(asked)) {
    throw new InputError(`sandbox_kind ${asked} is not one the build runs in`, `use one of ${BUILD_SANDBOX_KINDS.join(', ')}; slurm is for run_reproduce`);
  }
  const kind = asked === 'auto' ? (containerImage ? 'docker' : apptainerImage ? 'apptainer' : 'local') : (asked as BuildSandbox['kind']);
  if (kind === 'local') return { kind, description: 'on this machine, in the repository directory' };
  const given = kind === 'docker' ? containerImage : (apptainerImage ?? containerImage);
  const image = given === undefined ? undefined : resolveImage(given);
  if (!image) throw new InputError(`sandbox_kind ${kind} needs an image`, kind === 'docker' ? 'give container_image' : 'give apptainer_image (a .sif file or a URI)');
  const decision = await checkSandbox(kind, env);
  if (decision.kind === 'local') return { kind: 'local', ...(decision.warning ? { warning: decision.warning } : {}), description: 'on this machine, in the repository directory' };
  const binary = findBinary(kind, env);
  if (binary === null) throw new UnavailableError(`${kind} is not on PATH`, `install ${kind}, or use sandbox_kind local`);
  return {
    kind,
    exec: { container: { runtime: kind, binary, image, pull: 'never' } },
    description: `in the ${kind} image ${image} with no network, the repository mounted at the same path (read_file and write_code work on the same files)`,
  };
}
