import { oneLine } from '../core/errors.ts';
import { findCheckpointAgent } from './checkpoint-agent.ts';
import { nodeOfPassage, passageToLine } from './backup-convert.ts';
import { type EntryLine, type MemoryBackup, readMemoryBackup } from './backup-format.ts';
import { allPassages } from './backup-passages.ts';
import type { MemoryClient } from './client.ts';

/** Live passages shown at most; a larger agent is cut and says so. */
const MAX_LIVE_ENTRIES = 20_000;

export type BackendState = { url: string; reachable: boolean; agent_id: string | null; error?: string };

/**
 * A checkpoint's memory as the dashboard shows it. `source` says where the entries come from:
 * `backend` (the live passages of the checkpoint's agent, as backup lines with decoded metadata),
 * else `memory_backup.jsonl.gz` (the backend is down or has no agent for it), else null (neither).
 */
export type CheckpointMemory = Omit<MemoryBackup, 'source' | 'entries'> & {
  source: string | null;
  entries: (EntryLine | Record<string, unknown>)[];
  truncated: boolean;
  backend: BackendState;
};

export async function checkpointMemory(client: MemoryClient, url: string, checkpointDir: string, nodeId?: string): Promise<CheckpointMemory> {
  let agentId: string | null;
  try {
    agentId = await findCheckpointAgent(client, checkpointDir);
  } catch (err) {
    return fromFile(checkpointDir, nodeId, { url, reachable: false, agent_id: null, error: oneLine(err) });
  }
  const backend = { url, reachable: true, agent_id: agentId };
  if (agentId === null) return fromFile(checkpointDir, nodeId, backend);
  const entries: EntryLine[] = [];
  let truncated = false;
  // no tag pre-filter: a react step may name its node in its metadata only
  for await (const p of allPassages(client, agentId)) {
    if (nodeId !== undefined && nodeOfPassage(p) !== nodeId) continue;
    if (entries.length >= MAX_LIVE_ENTRIES) {
      truncated = true;
      break;
    }
    entries.push(passageToLine(p));
  }
  return { source: 'backend', entries, skipped: 0, problems: [], truncated, backend };
}

function fromFile(dir: string, nodeId: string | undefined, backend: BackendState): CheckpointMemory {
  return { ...readMemoryBackup(dir, nodeId), truncated: false, backend };
}
