import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';

/** The memory agent of a checkpoint: one per checkpoint directory, named from its real path. */
export function agentNameFor(checkpointDir: string, prefix?: string): string {
  let path = resolve(checkpointDir);
  try {
    path = realpathSync(path);
  } catch {
    // a checkpoint not created yet is named by the path it will have
  }
  return `${prefix ?? 'svc_'}agent_${createHash('sha1').update(path).digest('hex').slice(0, 12)}`;
}
