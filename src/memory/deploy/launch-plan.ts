import type { Env } from '../../core/config/env-vars.ts';
import type { LocalPath } from './local-state.ts';

/** `host`: the loopback address the server must answer on (localTarget). */
export type PlanContext = { workspace: string; port: number; host: string; env: Env };

/**
 * How one deployment path starts a server: commands run to completion first (`docker run -d`,
 * `instance start`), then the long-running process svc starts in the background and records
 * (null when the runtime keeps the server itself), and the commands that undo the setup.
 */
export type LaunchPlan = {
  path: LocalPath;
  /** directories the commands need */
  dirs: string[];
  setup: string[][];
  serve: string[] | null;
  teardown: string[][];
  /** how long the server may take to answer its health check once started */
  startTimeoutMs: number;
};
