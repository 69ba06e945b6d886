import { dirname } from 'node:path';
import { defineCommand } from 'citty';
import { findCheckpoint } from '../core/checkpoint/locate.ts';
import { type Env, envValue } from '../core/config/env-vars.ts';
import { checkpointsDir, loadEnv } from '../core/config/environment.ts';
import { InputError } from '../core/errors.ts';
import { checkpointAgentName, checkpointMemoryClient, findCheckpointAgent } from '../memory/checkpoint-agent.ts';
import { backupCheckpointMemory } from '../memory/backup.ts';
import { MemoryClient } from '../memory/client.ts';
import { compactAccessLog } from '../memory/compact-access.ts';
import { checkpointAgents, isWorkspaceServer, pruneAgents } from '../memory/deploy/agents.ts';
import { memoryHealth } from '../memory/deploy/health.ts';
import { startLocal, stopLocal } from '../memory/deploy/local.ts';
import { LOCAL_PATHS, type LocalPath } from '../memory/deploy/local-state.ts';
import { localTarget } from '../memory/deploy/target.ts';
import { migrateCheckpointMemory } from '../memory/migrate.ts';
import { reindexAgents } from '../memory/reindex.ts';
import { CONFLICT_MODES, parseConflictMode, restoreCheckpointMemory } from '../memory/restore.ts';
import { print, warn } from './output.ts';

const checkpointArg = { type: 'string', description: 'checkpoint directory or id (default: SVC_CHECKPOINT_DIR)' } as const;

/** The checkpoint a command works on, and the environment as that checkpoint sees it (its .env included). */
function checkpointOf(arg: string | undefined): { dir: string; env: Env } {
  const given = arg ?? loadEnv().SVC_CHECKPOINT_DIR;
  if (given === undefined || given === '') throw new InputError('no checkpoint given', 'pass --checkpoint DIR or set SVC_CHECKPOINT_DIR');
  const dir = findCheckpoint(given, checkpointsDir());
  return { dir, env: loadEnv({ checkpointDir: dir }) };
}

/** The workspace whose `.svc/memory/` holds the local server's pid file: the parent of the checkpoints directory. */
const workspace = () => dirname(checkpointsDir());

const health = defineCommand({
  meta: { description: 'Check the memory server (MEMBACKEND_BASE_URL); with a checkpoint, its agent and passage count' },
  args: { checkpoint: checkpointArg },
  async run({ args }) {
    const target = args.checkpoint === undefined ? { dir: undefined, env: loadEnv() } : checkpointOf(args.checkpoint);
    const client = target.dir === undefined ? MemoryClient.fromEnv(target.env) : checkpointMemoryClient(target.dir, target.env);
    const h = await memoryHealth(client, client.baseUrl, target.dir);
    print(`server  ${h.url} (${h.server} ${h.version})`);
    if (h.checkpoint) print(`agent   ${h.checkpoint.agent} ${h.checkpoint.agent_id === null ? '(none yet)' : `(${h.checkpoint.agent_id})`}, ${h.checkpoint.passages} passage(s)`);
  },
});

const migrate = defineCommand({
  meta: { description: 'Import a checkpoint\'s file memory (memory_backup.jsonl.gz, legacy memory_store.jsonl and memory.json) into the memory server' },
  args: {
    checkpoint: checkpointArg,
    react: { type: 'boolean', description: 'also import ReAct trace entries (react_step; memory.json)' },
    'dry-run': { type: 'boolean', description: 'only count what would be imported; needs no server' },
  },
  async run({ args }) {
    const { dir, env } = checkpointOf(args.checkpoint);
    const dryRun = args['dry-run'] === true;
    const report = await migrateCheckpointMemory(dryRun ? null : checkpointMemoryClient(dir, env), dir, { react: args.react === true, dryRun });
    if (report.sources.length === 0) {
      print(`no file memory in ${dir}`);
      return;
    }
    for (const s of report.sources) {
      const kinds = Object.entries(s.kinds).map(([k, n]) => `${k} ${n}`).join(', ');
      print(`${s.file}: ${Object.values(s.kinds).reduce((a, b) => a + b, 0)} entries${kinds ? ` (${kinds})` : ''}`);
      if (s.skipped > 0 || s.damage) warn(`${s.file}: ${s.skipped} damaged line(s) skipped${s.damage ? `; reading stopped: ${s.damage}` : ''}`);
    }
    if (report.excluded > 0) print(`left out ${report.excluded} react_step entries (pass --react to import them)`);
    if (report.imported) print(`imported into ${report.imported.agent_id}: ${report.imported.added} added, ${report.imported.kept} already there`);
    else print('dry run: nothing written');
  },
});

const backup = defineCommand({
  meta: { description: 'Snapshot the checkpoint\'s memory agent to memory_backup.jsonl.gz' },
  args: { checkpoint: checkpointArg },
  async run({ args }) {
    const { dir, env } = checkpointOf(args.checkpoint);
    const r = await backupCheckpointMemory(checkpointMemoryClient(dir, env), dir);
    if (!r.written) {
      warn(`nothing backed up: ${r.reason}`);
      return 1;
    }
    print(`wrote ${r.file}: ${r.entries} entries${r.core_seed ? ' and the core memory blocks' : ''}`);
  },
});

const restore = defineCommand({
  meta: { description: 'Load memory_backup.jsonl.gz into the checkpoint\'s memory agent' },
  args: {
    checkpoint: checkpointArg,
    'on-conflict': { type: 'string', description: `entries already there: ${CONFLICT_MODES.join(', ')} (default skip)` },
  },
  async run({ args }) {
    const mode = parseConflictMode(args['on-conflict'] ?? 'skip');
    const { dir, env } = checkpointOf(args.checkpoint);
    const r = await restoreCheckpointMemory(checkpointMemoryClient(dir, env), dir, mode);
    print(`restored into ${r.agent_id} (${mode}): ${r.read} entries read, ${r.added} added, ${r.kept} kept, ${r.merged} merged, ${r.replaced} replaced; core memory ${r.core_seed}`);
    if (r.skipped > 0 || r.damage) warn(`the backup is damaged: ${r.skipped} line(s) skipped${r.damage ? `; reading stopped: ${r.damage}` : ''}`);
  },
});

async function checkpointAgentOf(client: MemoryClient, dir: string): Promise<{ id: string; name: string }> {
  const id = await findCheckpointAgent(client, dir);
  if (id === null) throw new InputError(`the memory server has no agent for ${dir}`, 'nothing to reindex until the run stores memory (or `svc memory restore` loads its backup)');
  return { id, name: checkpointAgentName(dir) };
}

const reindex = defineCommand({
  meta: { description: 'Embed the passages that have no vector yet (svc\'s server with an embedding model): the checkpoint\'s agent, or every agent when no checkpoint is given' },
  args: { checkpoint: { type: 'string', description: 'checkpoint directory or id (default: SVC_CHECKPOINT_DIR, else every agent on the server)' } },
  async run({ args }) {
    const one = args.checkpoint !== undefined || (loadEnv().SVC_CHECKPOINT_DIR ?? '') !== '';
    const target = one ? checkpointOf(args.checkpoint) : { dir: undefined, env: loadEnv() };
    const client = target.dir === undefined ? MemoryClient.fromEnv(target.env) : checkpointMemoryClient(target.dir, target.env);
    const agents = target.dir === undefined ? await client.listAgents() : [await checkpointAgentOf(client, target.dir)];
    const r = await reindexAgents(client, agents, (p) => print(`${p.agent}: ${p.embedded} embedded with ${p.model}, ${p.remaining} to go`));
    for (const a of r.agents) {
      if ('skipped' in a) print(`${a.agent}: skipped (${a.skipped})`);
      else if (a.remaining > 0) warn(`${a.agent}: ${a.remaining} passage(s) still without a vector`);
    }
    print(`reindexed ${r.agents.length} agent(s): ${r.embedded} passage(s) embedded`);
  },
});

const startLocalCmd = defineCommand({
  meta: { description: 'Start a local memory server in the background at MEMBACKEND_BASE_URL and wait until it answers' },
  args: { path: { type: 'string', description: `${LOCAL_PATHS.join(', ')} (default SVC_MEMORY_BOOTSTRAP_LOCAL, else auto: the embedded server)` } },
  async run({ args }) {
    const env = loadEnv();
    const r = await startLocal(workspace(), env, localPathOf(args.path, env));
    print(`${r.message}${r.pid !== null ? ` (pid ${r.pid})` : ''}${r.version ? `, version ${r.version}` : ''}`);
  },
});

const stopLocalCmd = defineCommand({
  meta: { description: 'Stop the local memory server start-local started for this workspace' },
  async run() {
    const r = await stopLocal(workspace(), loadEnv());
    for (const w of r.warnings) warn(w);
    print(r.message);
  },
});

const pruneLocal = defineCommand({
  meta: { description: 'Delete the local server\'s agents whose checkpoints no longer exist' },
  args: { yes: { type: 'boolean', alias: 'y', description: 'delete them; without it they are only listed' } },
  async run({ args }) {
    const env = loadEnv();
    localTarget(env);
    const client = MemoryClient.fromEnv(env);
    const agents = await checkpointAgents(client, checkpointsDir(), env, isWorkspaceServer(workspace(), env));
    const gone = agents.filter((a) => a.state === 'gone');
    const unknown = agents.filter((a) => a.state === 'unknown').length;
    if (unknown > 0) print(`${unknown} agent(s) of no checkpoint here, on a server other workspaces may share: kept`);
    if (gone.length === 0) {
      print('no agents of deleted checkpoints');
      return;
    }
    for (const a of gone) print(`${a.name}  ${a.id}  ${a.checkpoint ?? '(no checkpoint here has its name)'}`);
    if (!args.yes) {
      warn(`${gone.length} agent(s) of deleted checkpoints; pass --yes to delete them`);
      return 2;
    }
    print(`deleted ${(await pruneAgents(client, agents)).length} agent(s)`);
  },
});

const compactAccess = defineCommand({
  meta: { description: 'Merge memory_access.jsonl and its rotated parts into one file and write memory_access.summary.json' },
  args: { checkpoint: checkpointArg },
  async run({ args }) {
    const { dir } = checkpointOf(args.checkpoint);
    const r = await compactAccessLog(dir);
    if (r.parts.length === 0) {
      print(`no memory_access.jsonl in ${dir}`);
      return;
    }
    print(`merged ${r.parts.length} part(s) into memory_access.jsonl: ${r.events} events, ${Object.keys(r.summary).length} node(s) in memory_access.summary.json`);
    if (r.skipped + r.duplicates > 0) warn(`dropped ${r.skipped} damaged line(s) and ${r.duplicates} repeated line(s)`);
  },
});

function localPathOf(flag: string | undefined, env: Env): LocalPath {
  const fromEnv = envValue(env, 'SVC_MEMORY_BOOTSTRAP_LOCAL');
  const raw = flag ?? (fromEnv === 'none' || fromEnv === null ? 'auto' : fromEnv);
  const path = LOCAL_PATHS.find((p) => p === raw);
  if (path === undefined) throw new InputError(`--path must be one of ${LOCAL_PATHS.join(', ')}, got '${raw}'${flag === undefined ? ' (from SVC_MEMORY_BOOTSTRAP_LOCAL)' : ''}`);
  return path;
}

export default defineCommand({
  meta: { description: 'Memory backend: health, backups, migration, reindexing, local server' },
  subCommands: {
    serve: () => import('./memory-serve.ts').then((m) => m.default),
    health,
    migrate,
    backup,
    restore,
    reindex,
    'start-local': startLocalCmd,
    'stop-local': stopLocalCmd,
    'prune-local': pruneLocal,
    'compact-access': compactAccess,
  },
});
