import { join, resolve } from 'node:path';
import { type Env, envValue } from '../../core/config/env-vars.ts';
import { homeDir } from '../../core/workspace.ts';

/** The orchestrator's checkpoints directory: `<SVC_WORKSPACE>/checkpoints` (SVC_WORKSPACE default ~/SVC). */
export function orchestratorCheckpoints(env: Env): string {
  const ws = envValue(env, 'SVC_WORKSPACE') ?? '~/SVC';
  const dir = ws === '~' || ws.startsWith('~/') ? join(homeDir(env), ws.slice(1)) : resolve(ws);
  return join(dir, 'checkpoints');
}
