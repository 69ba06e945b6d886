import { afterEach, beforeEach } from 'bun:test';
import { join } from 'node:path';
import { type Sandbox, sandbox } from '../../llm/helpers.ts';

/**
 * A fresh project with a run checkpoint for every test of a file, and the environment a web-skill
 * process of that run has (its own HOME, so no .env of the machine is read).
 */
export function webSandbox(): { box: () => Sandbox; env: (extra?: Record<string, string>) => Record<string, string> } {
  let current: Sandbox | undefined;
  beforeEach(() => {
    current = sandbox();
  });
  afterEach(() => current?.close());
  const box = () => {
    if (!current) throw new Error('no sandbox outside a test');
    return current;
  };
  return {
    box,
    env: (extra = {}) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(box().dir, 'home'), SVC_ROOT: box().project, SVC_CHECKPOINT_DIR: box().checkpoint, ...extra }),
  };
}
