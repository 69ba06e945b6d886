import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BenchJobs } from '../bench/jobs/queue.ts';
import { jobStoreExists, openBenchJobs } from '../bench/jobs/wiring.ts';
import { paperRegistryDir } from '../bench/registry.ts';
import { type Config, loadConfig } from '../core/config/config.ts';
import type { Env } from '../core/config/env-vars.ts';
import { dotenvFor, loadEnv, mergedEnv, secretsAsReferences } from '../core/config/environment.ts';
import { isCheckpointDir, listCheckpointDirs } from '../core/checkpoint/locate.ts';
import { ConflictError, NotFoundError, oneLine, UnavailableError } from '../core/errors.ts';
import { logFor } from '../core/log.ts';
import { isPlainName, resolveInside } from '../core/paths.ts';
import { memoForTurn } from '../core/turn-memo.ts';
import { createModelClient, type ModelClient } from '../llm/client.ts';
import { RunSupervisor } from '../run/supervisor.ts';
import { RoutingGuard } from './routing-guard.ts';

type Cached<T> = { at: number; active: string | null; value: T };

/**
 * What every route shares: where checkpoints live, which one is active, and the configuration.
 * Files on disk stay the source of truth; this holds only the selection and caches.
 */
export class ServerContext {
  readonly workspaceRoot: string;
  private activeDir: string | null;
  private configCache: Cached<Config> | null = null;
  private envCache: Cached<Env> | null = null;
  /** the runs this dashboard started: the only processes stop may signal */
  readonly runs = new RunSupervisor();
  /** changes of where requests go that foreign pages asked for, held for the user's approval */
  readonly routing = new RoutingGuard();
  /**
   * Opens the benchmark's job queue, which runs any queued job of the registry (jobs need the
   * real keys, so the environment keeps its secrets). Tests give a queue over their own registry.
   */
  benchJobsOpener: () => BenchJobs = () => {
    const env = loadEnv({ env: this.processEnv, cwd: this.cwd });
    return openBenchJobs(env, paperRegistryDir(env, this.workspaceRoot), 'any');
  };
  private benchQueue: BenchJobs | null = null;
  /** set once the dashboard stops: no queue opens after, so none is left running */
  private benchClosing = false;

  constructor(
    /** the process environment as given; .env files are read under it, and may change while we run */
    readonly processEnv: Env,
    readonly cwd: string,
    readonly checkpointsRoot: string,
    active: string | null,
    readonly token: string | null = null,
    /** web origins besides loopback ones that may call the API (--cors-origin, SVC_GUI_CORS_ORIGINS) */
    readonly corsOrigins: ReadonlySet<string> = new Set(),
  ) {
    this.workspaceRoot = dirname(checkpointsRoot);
    this.activeDir = active;
  }

  /** The active checkpoint, or null; a checkpoint deleted behind our back is no longer active. */
  get active(): string | null {
    if (this.activeDir && !stillThere(this.activeDir)) this.activeDir = null;
    return this.activeDir;
  }

  /** The active checkpoint, for routes that cannot work without one. */
  requireActive(): string {
    const dir = this.active;
    if (!dir) throw new ConflictError('no active checkpoint', 'select one with POST /api/switch-checkpoint');
    return dir;
  }

  setActive(dir: string | null): void {
    this.activeDir = dir;
    this.invalidate();
  }

  /**
   * The directory of checkpoint `id` (a directory name in the checkpoints root, never a path).
   * Unknown ids, and names that try to leave the root, are not found.
   */
  checkpointDir(id: string): string {
    if (typeof id !== 'string' || !isPlainName(id)) throw new NotFoundError('not found');
    let dir: string;
    try {
      dir = resolveInside(this.checkpointsRoot, id, 'checkpoint');
    } catch {
      throw new NotFoundError('not found');
    }
    if (!existsSync(dir) || !statSync(dir).isDirectory() || !isCheckpointDir(dir)) throw new NotFoundError('not found');
    return dir;
  }

  /**
   * The configuration as the active checkpoint sees it (its workflow copy, settings.json, .env).
   * Reloaded after a write through the API (invalidate) and at most every two seconds otherwise,
   * so edits made outside the dashboard show up without a restart.
   */
  config(): Config {
    const c = this.configCache;
    if (c && this.fresh(c)) return c.value;
    const value = loadConfig({ env: this.processEnv, cwd: this.cwd, checkpoints: this.checkpointsRoot, checkpointDir: this.active ?? undefined, hideSecrets: true });
    this.configCache = { at: Date.now(), active: this.active, value };
    return value;
  }

  /**
   * The environment as svc sees it now (the process environment over the .env files) without its
   * secrets: nothing the dashboard does needs a key's value. Read apart from config(), so that a
   * broken workflow copy does not stop the route that replaces it.
   */
  get env(): Env {
    const c = this.envCache;
    if (c && this.fresh(c)) return c.value;
    const value = secretsAsReferences(mergedEnv(this.processEnv, dotenvFor(this.processEnv, this.cwd, this.active ?? undefined)));
    this.envCache = { at: Date.now(), active: this.active, value };
    return value;
  }

  private fresh(c: { at: number; active: string | null }): boolean {
    return c.active === this.active && Date.now() - c.at < 2000;
  }

  /**
   * A model client for the wizard's model-assisted routes. It needs the real keys, so it loads the
   * configuration with secrets, and keeps no ledger: the wizard's calls belong to no run.
   */
  modelClient(): ModelClient {
    return createModelClient({ cfg: this.configWithSecrets(), checkpointDir: null });
  }

  /** The configuration with its secrets, for what must use a key (a model call, the doctor's model lists); never for showing. */
  configWithSecrets(): Config {
    return loadConfig({ env: this.processEnv, cwd: this.cwd, checkpoints: this.checkpointsRoot, checkpointDir: this.active ?? undefined });
  }

  /** The benchmark's job queue, opened (and started) when first needed; refused once the dashboard is stopping. */
  benchJobs(): BenchJobs {
    if (this.benchClosing) throw new UnavailableError('the dashboard is stopping: benchmark jobs are not taken now', 'send the request again once svc viz runs again');
    if (!this.benchQueue) {
      const queue = this.benchJobsOpener();
      try {
        this.benchQueue = queue.start();
      } catch (err) {
        void queue.stop();
        throw err;
      }
    }
    return this.benchQueue;
  }

  /** At dashboard start: a registry that keeps jobs gets its queue now, so queued jobs run without waiting for a request. */
  resumeBenchJobs(): void {
    try {
      const env = loadEnv({ env: this.processEnv, cwd: this.cwd });
      if (jobStoreExists(paperRegistryDir(env, this.workspaceRoot))) this.benchJobs();
    } catch (err) {
      // the dashboard still starts; the bench routes report the same error when called
      logFor('svc viz').warn(`benchmark jobs not resumed: ${oneLine(err)}`);
    }
  }

  /** At dashboard stop: running jobs are aborted and failed as stopped; queued ones wait for the next start. */
  async stopBenchJobs(): Promise<void> {
    this.benchClosing = true;
    const queue = this.benchQueue;
    this.benchQueue = null;
    await queue?.stop();
  }

  invalidate(): void {
    this.configCache = null;
    this.envCache = null;
  }

  get settingsPath(): string {
    return join(this.workspaceRoot, 'settings.json');
  }
}

/** Every request asks for the active checkpoint; one existence check per turn serves them all. */
const stillThere = memoForTurn((dir: string) => existsSync(dir));

/**
 * Where `svc viz [dir]` looks: a checkpoint (it becomes active, its parent is the checkpoints
 * directory), a workspace holding `checkpoints/`, or a checkpoints directory itself. Without an
 * argument, the configured checkpoints directory, with the run SVC_CHECKPOINT_DIR names (`pinned`)
 * or else the newest checkpoint there selected.
 */
export function locateDashboardRoot(arg: string | undefined, defaultRoot: string, pinned?: string): { checkpointsRoot: string; active: string | null } {
  if (arg === undefined) {
    // SVC_CHECKPOINT_DIR names one run: that one is selected
    const active = pinned && existsSync(pinned) && isCheckpointDir(pinned) ? pinned : newest(defaultRoot);
    return { checkpointsRoot: defaultRoot, active };
  }
  if (!existsSync(arg)) throw new NotFoundError(`${arg} does not exist`, 'give a checkpoint or workspace directory');
  if (!statSync(arg).isDirectory()) throw new ConflictError(`${arg} is a file, not a checkpoint or workspace directory`);
  if (isCheckpointDir(arg)) return { checkpointsRoot: dirname(arg), active: arg };
  const nested = join(arg, 'checkpoints');
  const root = existsSync(nested) && statSync(nested).isDirectory() ? nested : arg;
  return { checkpointsRoot: root, active: newest(root) };
}

function newest(root: string): string | null {
  // names start with YYYYMMDDHHMMSS, and listCheckpointDirs sorts them newest first
  return listCheckpointDirs(root)[0] ?? null;
}
