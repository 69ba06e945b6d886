import { InputError } from '../errors.ts';

/**
 * Profiles are overlays between the workflow file and the environment: a few settings suited to
 * where svc runs. Keys are setting names of `settings.ts`.
 */
export const PROFILES = {
  laptop: { executor: 'local', max_nodes: 8, parallel: 2 },
  hpc: { executor: 'slurm', max_nodes: 20, parallel: 4, cpus: 8, mem_gb: 32, walltime: '04:00:00' },
  cloud: { executor: 'local', max_nodes: 16, parallel: 4 },
} as const satisfies Record<string, Record<string, string | number>>;

export type ProfileName = keyof typeof PROFILES;
export const PROFILE_NAMES = Object.keys(PROFILES) as ProfileName[];

export function profile(name: string | undefined): Readonly<Record<string, string | number>> | undefined {
  if (name === undefined || name === '') return undefined;
  if (!(name in PROFILES)) throw new InputError(`unknown profile '${name}'`, `use one of ${PROFILE_NAMES.join(', ')}`);
  return PROFILES[name as ProfileName];
}
