import { checkpointAgentName, findCheckpointAgent } from '../checkpoint-agent.ts';
import { allPassages } from '../backup-passages.ts';
import type { MemoryClient } from '../client.ts';

export type MemoryHealth = {
  url: string;
  ok: true;
  version: string;
  server: 'svc' | 'letta';
  /** with a checkpoint: its agent and how many passages it holds */
  checkpoint?: { dir: string; agent: string; agent_id: string | null; passages: number };
};

/** The server's health answer, and with a checkpoint, its agent's passage count. Throws UnavailableError when the server is down. */
export async function memoryHealth(client: MemoryClient, url: string, checkpointDir?: string): Promise<MemoryHealth> {
  const h = await client.health();
  const out: MemoryHealth = { url, ok: true, version: h.version, server: h.server };
  if (checkpointDir === undefined) return out;
  const agentId = await findCheckpointAgent(client, checkpointDir);
  let passages = 0;
  if (agentId !== null) for await (const _ of allPassages(client, agentId)) passages++;
  out.checkpoint = { dir: checkpointDir, agent: checkpointAgentName(checkpointDir), agent_id: agentId, passages };
  return out;
}
