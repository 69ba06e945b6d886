/**
 * forbid_host_filesystem (bridge rule 5): the agent and the reproduction may not see this host's
 * files, so the sandboxes that run on them (local, and slurm, whose jobs share the file system)
 * are refused; auto must end on a container.
 */
import type { Refusal } from '../../reproduce/sandbox-choice.ts';

export const HOST_FILESYSTEM_REFUSAL: Refusal = {
  kinds: ['local', 'slurm'],
  why: 'forbid_host_filesystem is true and it runs on the host file system',
  hint: 'use sandbox_kind docker, apptainer or singularity with container_image, or set forbid_host_filesystem false',
};
