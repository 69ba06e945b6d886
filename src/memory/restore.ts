import { join } from 'node:path';
import { type Env, envOnOff } from '../core/config/env-vars.ts';
import { InputError, NotFoundError } from '../core/errors.ts';
import { isFileAt } from '../core/paths.ts';
import { ensureCheckpointAgent, findCheckpointAgent } from './checkpoint-agent.ts';
import { BACKUP_FILE, type ReadTally, readBackupLines } from './backup-format.ts';
import type { MemoryClient } from './client.ts';
import { CONFLICT_MODES, type ConflictMode, type ImportTally, importLines } from './restore-import.ts';

export { CONFLICT_MODES, type ConflictMode } from './restore-import.ts';

export type RestoreReport = ImportTally & {
  file: string;
  mode: ConflictMode;
  agent_id: string;
  /** lines of the backup that were not records */
  skipped: number;
  /** why reading stopped early (a truncated or corrupt archive), or null */
  damage: string | null;
};

export function parseConflictMode(raw: string): ConflictMode {
  const mode = CONFLICT_MODES.find((m) => m === raw);
  if (mode === undefined) throw new InputError(`--on-conflict must be one of ${CONFLICT_MODES.join(', ')}, got '${raw}'`);
  return mode;
}

/**
 * Load `memory_backup.jsonl.gz` into the checkpoint's agent (created when missing) under a
 * conflict mode (see CONFLICT_MODES). A damaged backup restores what is readable; the report
 * counts what was skipped and says where the archive broke off.
 */
export async function restoreCheckpointMemory(client: MemoryClient, checkpointDir: string, mode: ConflictMode = 'skip'): Promise<RestoreReport> {
  const file = join(checkpointDir, BACKUP_FILE);
  if (!isFileAt(file)) throw new NotFoundError(`${checkpointDir} has no ${BACKUP_FILE}`, 'svc memory backup writes one');
  const agentId = await ensureCheckpointAgent(client, checkpointDir);
  let tally: ReadTally = { lines: 0, skipped: 0, damage: null };
  // each pass reads the file afresh; the report keeps the last pass's tally
  const source = () => {
    tally = { lines: 0, skipped: 0, damage: null };
    return readBackupLines(file, tally, { gzip: true });
  };
  const result = await importLines(client, agentId, source, mode);
  return { file, mode, agent_id: agentId, ...result, skipped: tally.skipped, damage: tally.damage };
}

export type AutoRestore = { restored: false; reason: string } | { restored: true; report: RestoreReport };

/**
 * On resume: restore the backup when the backend has nothing for this checkpoint (a fresh or
 * wiped server), never over an agent that has passages. Off when SVC_MEMORY_AUTO_RESTORE is false.
 */
export async function autoRestoreIfEmpty(client: MemoryClient, checkpointDir: string, env: Env): Promise<AutoRestore> {
  if (!envOnOff(env, 'SVC_MEMORY_AUTO_RESTORE')) return { restored: false, reason: 'SVC_MEMORY_AUTO_RESTORE is off' };
  if (!isFileAt(join(checkpointDir, BACKUP_FILE))) return { restored: false, reason: `no ${BACKUP_FILE}` };
  const agentId = await findCheckpointAgent(client, checkpointDir);
  if (agentId !== null && (await client.listPassages(agentId, { limit: 1 })).length > 0) {
    return { restored: false, reason: 'the agent already has passages' };
  }
  return { restored: true, report: await restoreCheckpointMemory(client, checkpointDir, 'skip') };
}
