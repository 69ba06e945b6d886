import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, loadConfig } from '../../../src/core/config/config.ts';
import type { Env } from '../../../src/core/config/env-vars.ts';

const boxes: string[] = [];

export function removeBoxes(): void {
  for (const b of boxes.splice(0)) rmSync(b, { recursive: true, force: true });
}

/**
 * A project of its own with `env` as the whole environment (HOME inside it, the real PATH unless
 * given) and, when `workflow` is given, that YAML over the bundled workflow.
 */
export function project(env: Env = {}, workflow?: string): { dir: string; env: Env; cfg: Config } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-doctor-'));
  boxes.push(dir);
  mkdirSync(join(dir, 'workspace'));
  const full: Env = { HOME: dir, PATH: process.env.PATH ?? '', ...env };
  let configPath: string | undefined;
  if (workflow !== undefined) {
    configPath = join(dir, 'workflow.yaml');
    writeFileSync(configPath, workflow);
  }
  return { dir, env: full, cfg: loadConfig({ cwd: dir, env: full, configPath }) };
}

/** A port nothing listens on: taken from the system, then let go. */
export function closedPort(): number {
  const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') });
  const port = s.port as number;
  s.stop(true);
  return port;
}

/** The paper stages off (no post-search pipeline at all). */
export const NO_PIPELINE = 'pipeline: []\n';
