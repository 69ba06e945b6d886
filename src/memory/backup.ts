import { join } from 'node:path';
import { statOrNull } from '../core/paths.ts';
import { findCheckpointAgent } from './checkpoint-agent.ts';
import { blocksToSeed, readCoreBlocks } from './backup-blocks.ts';
import { passageToLine } from './backup-convert.ts';
import { BACKUP_FILE, type BackupLine, writeBackupFile } from './backup-format.ts';
import { allPassages } from './backup-passages.ts';
import type { MemoryClient } from './client.ts';

export type BackupResult = {
  file: string;
  /** false when nothing was written; `reason` says why */
  written: boolean;
  entries: number;
  core_seed: boolean;
  reason?: string;
};

/**
 * Snapshot the checkpoint's agent into `memory_backup.jsonl.gz`: every passage oldest first as
 * an entry line, then the core memory blocks as one core_seed line. A crash or a backend that
 * fails mid-way leaves the previous backup intact.
 *
 * An agent that is missing or empty never replaces a backup that has content: that is what a
 * backend which lost its data looks like, and the backup is what would bring it back.
 */
export async function backupCheckpointMemory(client: MemoryClient, checkpointDir: string): Promise<BackupResult> {
  const file = join(checkpointDir, BACKUP_FILE);
  const agentId = await findCheckpointAgent(client, checkpointDir);
  const hasBackup = (statOrNull(file)?.size ?? 0) > 0;
  if (agentId === null) {
    return { file, written: false, entries: 0, core_seed: false, reason: 'the memory backend has no agent for this checkpoint' };
  }
  const seed = blocksToSeed(await readCoreBlocks(client, agentId));
  if (hasBackup && seed === null && (await client.listPassages(agentId, { limit: 1 })).length === 0) {
    return { file, written: false, entries: 0, core_seed: false, reason: `the agent is empty; kept the existing ${BACKUP_FILE}` };
  }
  let entries = 0;
  async function* lines(): AsyncGenerator<BackupLine> {
    for await (const p of allPassages(client, agentId as string, { vectors: true })) {
      entries++;
      yield passageToLine(p);
    }
    if (seed !== null) yield seed;
  }
  await writeBackupFile(file, lines());
  return { file, written: true, entries, core_seed: seed !== null };
}
