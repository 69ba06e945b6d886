import { log } from '../core/log.ts';
import { type Env, envValue } from '../core/config/env-vars.ts';
import { InputError, oneLine } from '../core/errors.ts';
import { type BackupResult, backupCheckpointMemory } from './backup.ts';
import type { MemoryClient } from './client.ts';

export type PeriodicBackup = {
  /** seconds between backups; 0 when off */
  intervalS: number;
  /** stops the timer and waits for a backup under way to finish */
  stop: () => Promise<void>;
};

/**
 * Back the checkpoint's memory up every SVC_MEMORY_BACKUP_INTERVAL_S seconds while a run goes on
 * (0, the default, is off). Opportunistic: a backup still under way when the next is due is not
 * doubled, and a failing backend costs a warning, never the run. `onBackup` sees each outcome.
 */
export function startPeriodicBackup(client: MemoryClient, checkpointDir: string, env: Env, onBackup?: (r: BackupResult | Error) => void): PeriodicBackup {
  const intervalS = backupIntervalS(env);
  if (intervalS === 0) return { intervalS, stop: async () => {} };
  let running: Promise<void> | null = null;
  let stopped = false;
  let lastError: string | null = null;
  const tick = () => {
    if (running !== null || stopped) return;
    running = backupCheckpointMemory(client, checkpointDir)
      .then((r) => {
        lastError = null;
        onBackup?.(r);
      })
      .catch((err: Error) => {
        // one warning per distinct failure, not one per tick of a backend that stays down
        if (oneLine(err) !== lastError) log.warn(`memory backup failed: ${oneLine(err)}`);
        lastError = oneLine(err);
        onBackup?.(err);
      })
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalS * 1000);
  timer.unref();
  return {
    intervalS,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** SVC_MEMORY_BACKUP_INTERVAL_S as whole seconds; anything but a non-negative number is refused. */
export function backupIntervalS(env: Env): number {
  const raw = envValue(env, 'SVC_MEMORY_BACKUP_INTERVAL_S') ?? '0';
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || !Number.isFinite(n)) {
    throw new InputError(`SVC_MEMORY_BACKUP_INTERVAL_S must be a number of seconds (0 = off), got '${raw}'`);
  }
  return n;
}
