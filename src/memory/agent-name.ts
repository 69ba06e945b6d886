import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { realOrSelf } from '../core/paths.ts';

/** The memory agent of a checkpoint: one per checkpoint directory, named from its real path. */
export function agentNameFor(checkpointDir: string, prefix?: string): string {
  // a checkpoint not created yet is named by the path it will have
  const path = realOrSelf(resolve(checkpointDir));
  return `${prefix ?? 'svc_'}agent_${createHash('sha1').update(path).digest('hex').slice(0, 12)}`;
}
