import { type Env, envValue } from '../core/config/env-vars.ts';
import { oneLine } from '../core/errors.ts';
import { withoutCredentials } from '../core/text.ts';
import { backupCheckpointMemory } from '../memory/backup.ts';
import { startPeriodicBackup } from '../memory/backup-schedule.ts';
import { MemoryClient } from '../memory/client.ts';
import { autoRestoreIfEmpty } from '../memory/restore.ts';
import { defaultMemoryDataDir, startMemoryServer } from '../memory/server.ts';

export type RunMemory = {
  /** variables the run's skill processes need to reach memory (MEMBACKEND_BASE_URL when the run serves it) */
  env: Record<string, string>;
  /** where memory is, or why there is none, for the run's log */
  note: string;
  client: MemoryClient | null;
  /** backs the checkpoint's memory up and stops what the run started */
  close(): Promise<void>;
};

/**
 * The memory a run works with: the configured server when it answers; else, unless
 * SVC_MEMORY_BOOTSTRAP_LOCAL is none, the embedded server inside this process for the run's
 * lifetime (same data directory as `svc memory serve`), so a laptop run needs no daemon. On resume
 * the checkpoint's backup is restored into an empty backend. At the end memory is backed up to
 * the checkpoint.
 */
export async function openRunMemory(env: Env, checkpointDir: string, opts: { resume: boolean; log: (msg: string) => void }): Promise<RunMemory> {
  let client = MemoryClient.fromEnv(env);
  const extra: Record<string, string> = {};
  let stopServer: (() => Promise<void>) | null = null;
  let note: string;
  // the notes go to the run's log: the address without a user:password in it
  const configured = withoutCredentials(client.baseUrl);
  const reachable = await client.health().then(
    () => null,
    (err: unknown) => oneLine(err),
  );
  if (reachable === null) {
    note = `memory: ${configured}`;
  } else if ((envValue(env, 'SVC_MEMORY_BOOTSTRAP_LOCAL') ?? 'auto') === 'none') {
    return { env: {}, note: `memory: none (${configured} does not answer: ${reachable}; SVC_MEMORY_BOOTSTRAP_LOCAL=none)`, client: null, close: async () => {} };
  } else {
    const dataDir = defaultMemoryDataDir(env);
    // the run's environment: its .env files and workflow settings choose the embedding model too
    const server = startMemoryServer({ port: 0, host: '127.0.0.1', dataDir, apiKey: envValue(env, 'MEMBACKEND_API_KEY'), env, announce: false });
    stopServer = server.stop;
    extra.MEMBACKEND_BASE_URL = server.url;
    client = MemoryClient.fromEnv({ ...env, ...extra });
    note = `memory: served by this run at ${server.url} (data in ${dataDir}), since ${configured} does not answer`;
  }
  if (opts.resume) {
    const restored = await autoRestoreIfEmpty(client, checkpointDir, env).catch((err: unknown) => ({ restored: false as const, reason: oneLine(err) }));
    if (restored.restored) opts.log(`memory restored from the checkpoint's backup (${restored.report.added} entries)`);
  }
  const periodic = startPeriodicBackup(client, checkpointDir, env);
  const c = client;
  return {
    env: extra,
    note,
    client: c,
    async close() {
      await periodic.stop();
      await backupCheckpointMemory(c, checkpointDir).catch((err: unknown) => opts.log(`memory backup failed: ${oneLine(err)}`));
      await stopServer?.();
    },
  };
}
