import { isCheckpointDir, listCheckpointDirs } from '../../core/checkpoint/locate.ts';
import { oneLine } from '../../core/errors.ts';
import type { Env } from '../../core/config/env-vars.ts';
import { CHECKPOINT_BLOCK, checkpointAgentName } from '../checkpoint-agent.ts';
import { MemoryClient } from '../client.ts';
import { readRecord, recordIsOurs } from './local-state.ts';
import { backendUrl } from './target.ts';

/** An agent of the memory server and the checkpoint it belongs to, as far as that can be told. */
export type AgentOwner = {
  id: string;
  name: string;
  /** the checkpoint directory the agent is marked with, or the one whose name hash matches */
  checkpoint: string | null;
  /** gone: its checkpoint no longer exists; unknown: no mark and no checkpoint here matches */
  state: 'live' | 'gone' | 'unknown';
};

/** Checkpoint agents are named `<collection_prefix>agent_<hash>`; the prefix is the workflow's. */
const CHECKPOINT_AGENT = /agent_[0-9a-f]{12}$/;

/**
 * The server's checkpoint agents and whether their checkpoints still exist. An agent marked with
 * its checkpoint directory is gone when that directory is no longer a checkpoint. An unmarked one
 * is live when a checkpoint under `checkpointsRoot` has its name; else it is gone on a server
 * whose data belongs to this workspace alone (`ownServer`), and unknown elsewhere: there it may
 * belong to another workspace, so it is never counted as gone.
 */
export async function checkpointAgents(client: MemoryClient, checkpointsRoot: string, env: Env, ownServer: boolean): Promise<AgentOwner[]> {
  const here = new Map(listCheckpointDirs(checkpointsRoot).map((d) => [checkpointAgentName(d, env), d]));
  const out: AgentOwner[] = [];
  for (const agent of await client.listAgents()) {
    if (!CHECKPOINT_AGENT.test(agent.name)) continue;
    const marked = await client.getBlock(agent.id, CHECKPOINT_BLOCK);
    if (marked) out.push({ ...agent, checkpoint: marked, state: isCheckpointDir(marked) ? 'live' : 'gone' });
    else {
      const dir = here.get(agent.name) ?? null;
      out.push({ ...agent, checkpoint: dir, state: dir !== null ? 'live' : ownServer ? 'gone' : 'unknown' });
    }
  }
  return out;
}

/**
 * True when MEMBACKEND_BASE_URL is the server start-local started for this workspace with its data
 * under the workspace (auto, singularity) or in a volume named for it (docker); a pip Letta keeps
 * its data in the user's home, shared by every workspace.
 */
export function isWorkspaceServer(workspace: string, env: Env): boolean {
  const record = readRecord(workspace);
  return record !== null && record.path !== 'pip' && record.url === backendUrl(env) && recordIsOurs(record);
}

/** Delete the agents whose checkpoints are gone; returns them. */
export async function pruneAgents(client: MemoryClient, agents: AgentOwner[]): Promise<AgentOwner[]> {
  const gone = agents.filter((a) => a.state === 'gone');
  for (const a of gone) await client.deleteAgent(a.id);
  return gone;
}

export type AgentRemoval = { agent: string; deleted: boolean; warning?: string };

/**
 * Delete the agent named `name` on the server `env` names (take both with checkpointAgentName and
 * checkpointMemoryEnv before the checkpoint directory goes: the name hashes its real path). Never
 * throws: a backend that is down or refuses gives a warning, and the delete it belongs to goes on.
 */
export async function deleteAgentNamed(env: Env, name: string): Promise<AgentRemoval> {
  try {
    const client = MemoryClient.fromEnv(env);
    const id = await client.findAgent(name);
    if (id === null) return { agent: name, deleted: false };
    await client.deleteAgent(id);
    return { agent: name, deleted: true };
  } catch (err) {
    return { agent: name, deleted: false, warning: `memory agent ${name} was not deleted: ${oneLine(err)}; svc memory prune-local can remove it later` };
  }
}
