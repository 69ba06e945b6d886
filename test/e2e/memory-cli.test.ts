import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { agentNameFor, MemoryClient } from '../../src/memory/client.ts';
import { startMemoryServer } from '../../src/memory/server.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, SVC, svc, tempDir } from '../support/svc.ts';
import { deadUrl } from '../unit/memory/backup-server.ts';

let dir: string;
let root: string;
let url: string;
let env: Record<string, string>;
beforeEach(async () => {
  dir = tempDir();
  root = join(dir, 'workspace', 'checkpoints');
  mkdirSync(root, { recursive: true });
  url = await deadUrl();
  env = { MEMBACKEND_BASE_URL: url, SVC_MEMORY_LETTA_TIMEOUT_S: '5' };
});
afterEach(async () => {
  // whatever a test started, stop-local stops (it only touches what its pid file names)
  await svc(['memory', 'stop-local'], { cwd: dir, env });
  removeDir(dir);
});

const run = (args: string[], extra: Record<string, string> = {}) => svc(['memory', ...args], { cwd: dir, env: { ...env, ...extra } });
const client = () => new MemoryClient({ baseUrl: url, timeoutMs: 5000 });
const pidFile = () => join(dir, 'workspace', '.svc', 'memory', 'local-server.json');

async function startLocal(): Promise<void> {
  const r = await run(['start-local']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toStartWith(`started (auto) at ${url} (pid `);
}

/** A checkpoint with legacy file memory, as the reference implementation's older runs left it. */
function legacyCheckpoint(runId: string): string {
  const ck = writeCheckpoint(root, { runId, nodes: 3 });
  const lines = [
    { node_id: 'n1', text: 'blocking by 64 is best', metadata: { gflops: 9.8 }, ts: 1 },
    { node_id: 'n2', text: 'AVX2 build fails without -mavx2', metadata: {}, ts: 2 },
  ];
  writeFileSync(join(ck, 'memory_store.jsonl'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  writeFileSync(join(ck, 'memory.json'), JSON.stringify([{ content: 'step: compiled', metadata: { node_id: 'n1' }, ts: 3 }]));
  return ck;
}

describe('svc memory', () => {
  test('lists its commands; svc --help lists it', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    for (const c of ['serve', 'health', 'migrate', 'backup', 'restore', 'reindex', 'start-local', 'stop-local', 'prune-local', 'compact-access']) expect(help.stdout).toContain(`${c} `);
    expect((await svc(['--help'], { cwd: dir })).stdout).toContain('  memory ');
  });

  test('backend down: health is one line naming the URL, exit 1', async () => {
    const r = await run(['health']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr).toStartWith(`svc: memory server ${url} (MEMBACKEND_BASE_URL): not reachable`);
  });

  test('a server that accepts and never answers: one line once SVC_MEMORY_LETTA_TIMEOUT_S has passed', async () => {
    const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    try {
      const r = await run(['health'], { MEMBACKEND_BASE_URL: `http://127.0.0.1:${silent.port}`, SVC_MEMORY_LETTA_TIMEOUT_S: '1' });
      expect(r.code).toBe(1);
      expect(r.stderr.split('\n')).toHaveLength(2);
      expect(r.stderr).toContain(`http://127.0.0.1:${silent.port}`);
    } finally {
      silent.stop(true);
    }
  });

  test('migrate, health, backup and restore of one checkpoint against the local server', async () => {
    const ck = legacyCheckpoint('20261101120000_legacy');
    const dry = await run(['migrate', '--checkpoint', ck, '--dry-run', '--react']);
    expect(dry).toMatchObject({ code: 0, stderr: '' });
    expect(dry.stdout).toBe('memory_store.jsonl: 2 entries (node_scope 2)\nmemory.json: 1 entries (react_step 1)\ndry run: nothing written\n');
    await startLocal();
    const health = await run(['health', '--checkpoint', ck]);
    expect(health.stdout).toMatch(new RegExp(`^server  ${url} \\(svc \\S+\\)\\nagent   ${agentNameFor(ck)} \\(none yet\\), 0 passage\\(s\\)\\n$`));
    const migrated = await run(['migrate', '--checkpoint', ck]);
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toMatch(/^memory_store\.jsonl: 2 entries \(node_scope 2\)\nimported into agent-\S+: 2 added, 0 already there\n$/);
    expect((await run(['migrate', '--checkpoint', ck, '--react'])).stdout).toEndWith(': 1 added, 2 already there\n');
    expect((await run(['health', '--checkpoint', ck])).stdout).toEndWith(', 3 passage(s)\n');

    const backup = await run(['backup', '--checkpoint', ck]);
    expect(backup).toEqual({ code: 0, stdout: `wrote ${join(ck, 'memory_backup.jsonl.gz')}: 3 entries\n`, stderr: '' });
    const lines = gunzipSync(readFileSync(join(ck, 'memory_backup.jsonl.gz'))).toString().trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.kind, l.node_id, l.text])).toEqual([
      ['node_scope', 'n1', 'blocking by 64 is best'],
      ['node_scope', 'n2', 'AVX2 build fails without -mavx2'],
      ['react_step', undefined, 'step: compiled'],
    ]);

    const agent = (await client().findAgent(agentNameFor(ck))) ?? '';
    await client().deleteAgent(agent);
    const restored = await run(['restore', '--checkpoint', ck]);
    expect(restored.stdout).toMatch(/^restored into agent-\S+ \(skip\): 3 entries read, 3 added, 0 kept, 0 merged, 0 replaced; core memory none\n$/);
    const merged = await run(['restore', '--checkpoint', ck, '--on-conflict', 'merge']);
    expect(merged.stdout).toContain('3 entries read, 0 added, 3 kept, 0 merged');
    const over = await run(['restore', '--checkpoint', ck, '--on-conflict=overwrite']);
    expect(over.stdout).toContain('3 entries read, 3 added, 0 kept, 0 merged, 3 replaced');
    expect((await run(['health', '--checkpoint', ck])).stdout).toEndWith(', 3 passage(s)\n');
  });

  test('a damaged backup restores what it can and says how much it skipped', async () => {
    const ck = writeCheckpoint(root, { runId: 'damaged' });
    const text = `${JSON.stringify({ kind: 'node_scope', node_id: 'n1', text: 'kept', metadata: {}, ts: 1 })}\ngarbage\n`;
    writeFileSync(join(ck, 'memory_backup.jsonl.gz'), Bun.gzipSync(Buffer.from(text)));
    await startLocal();
    const r = await run(['restore', '--checkpoint', ck]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 entries read, 1 added');
    expect(r.stderr).toBe('svc: the backup is damaged: 1 line(s) skipped\n');
  });

  test('bad input: one line, exit 2, nothing done', async () => {
    const ck = writeCheckpoint(root, { runId: 'fine' });
    mkdirSync(join(dir, 'plain'));
    for (const [args, msg] of [
      [['restore', '--checkpoint', ck, '--on-conflict', 'replace'], "svc: --on-conflict must be one of skip, overwrite, merge, got 'replace'\n"],
      [['backup', '--checkpoint', join(dir, 'plain')], `svc: ${join(dir, 'plain')} is not a checkpoint (a checkpoint holds tree.json, idea.json or launch_config.json)\n`],
      [['backup'], 'svc: no checkpoint given (pass --checkpoint DIR or set SVC_CHECKPOINT_DIR)\n'],
      [['migrate', '--checkpoint', join(dir, 'nowhere')], `svc: checkpoint '${join(dir, 'nowhere')}' does not exist (looked at ${join(dir, 'nowhere')} and in ${root}; see svc projects)\n`],
      [['start-local', '--path', 'podman'], "svc: --path must be one of auto, docker, singularity, pip, got 'podman'\n"],
      [['restore', '--on-conflict'], "svc: option '--on-conflict' of svc memory restore needs a value\n"],
    ] as const) {
      expect(await run([...args])).toEqual({ code: 2, stdout: '', stderr: msg });
    }
    expect(existsSync(join(dir, 'workspace', '.svc'))).toBe(false);
    expect(await run(['start-local'], { MEMBACKEND_BASE_URL: 'http://memory.example.org:8283' })).toMatchObject({ code: 2, stderr: expect.stringContaining('is not on this machine') });
    expect(existsSync(join(dir, 'workspace', '.svc'))).toBe(false);
  });

  test('restore without a backup says so', async () => {
    const ck = writeCheckpoint(root, { runId: 'empty' });
    await startLocal();
    expect(await run(['restore', '--checkpoint', ck])).toEqual({ code: 2, stdout: '', stderr: `svc: ${ck} has no memory_backup.jsonl.gz (svc memory backup writes one)\n` });
  });

  test('backup of a checkpoint the backend has no agent for writes nothing, exit 1', async () => {
    const ck = writeCheckpoint(root, { runId: 'noagent' });
    await startLocal();
    expect(await run(['backup', '--checkpoint', ck])).toEqual({ code: 1, stdout: '', stderr: 'svc: nothing backed up: the memory backend has no agent for this checkpoint\n' });
    expect(existsSync(join(ck, 'memory_backup.jsonl.gz'))).toBe(false);
  });

  test('compact-access merges the telemetry and writes the summary', async () => {
    const ck = writeCheckpoint(root, { runId: 'telemetry' });
    writeFileSync(join(ck, 'memory_access.100.jsonl'), `${JSON.stringify({ ts: 1, node_id: 'a', op: 'write' })}\n`);
    writeFileSync(join(ck, 'memory_access.jsonl'), `${JSON.stringify({ ts: 2, node_id: 'a', op: 'read' })}\nbroken\n`);
    const r = await run(['compact-access', '--checkpoint', ck]);
    expect(r).toEqual({ code: 0, stdout: 'merged 2 part(s) into memory_access.jsonl: 2 events, 1 node(s) in memory_access.summary.json\n', stderr: 'svc: dropped 1 damaged line(s) and 0 repeated line(s)\n' });
    expect(JSON.parse(readFileSync(join(ck, 'memory_access.summary.json'), 'utf8'))).toEqual({ a: { writes: 1, reads: 1 } });
    expect(existsSync(join(ck, 'memory_access.100.jsonl'))).toBe(false);
  });
});

describe('svc memory start-local and stop-local', () => {
  test('start-local is idempotent; stop-local stops only its own process and then has nothing to stop', async () => {
    await startLocal();
    const record = JSON.parse(readFileSync(pidFile(), 'utf8'));
    expect(record).toMatchObject({ path: 'auto', url, serve: [SVC, 'memory', 'serve', '--host', '127.0.0.1', '--port', url.split(':')[2], '--data-dir', join(dir, 'workspace', '.svc', 'memory', 'data')] });
    const again = await run(['start-local']);
    expect(again.stdout).toStartWith(`already running (auto) at ${url} (pid ${record.pid})`);
    expect((await client().health()).server).toBe('svc');
    expect(await run(['stop-local'])).toEqual({ code: 0, stdout: `stopped the auto memory server at ${url}\n`, stderr: '' });
    expect(existsSync(pidFile())).toBe(false);
    await expect(client().health()).rejects.toThrow('not reachable');
    expect(await run(['stop-local'])).toEqual({ code: 0, stdout: 'no local memory server was started here (no pid file)\n', stderr: '' });
  });

  test('stop-local where nothing was ever started creates nothing', async () => {
    expect(await run(['stop-local'])).toEqual({ code: 0, stdout: 'no local memory server was started here (no pid file)\n', stderr: '' });
    expect(existsSync(join(dir, 'workspace', '.svc'))).toBe(false);
  });

  test('a backend URL on [::1]: the server comes up there', async () => {
    const v6 = url.replace('127.0.0.1', '[::1]');
    const r = await run(['start-local'], { MEMBACKEND_BASE_URL: v6 });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toStartWith(`started (auto) at ${v6} (pid `);
    expect((await run(['stop-local'], { MEMBACKEND_BASE_URL: v6 })).stdout).toBe(`stopped the auto memory server at ${v6}\n`);
  });

  test('start-local three times at once: one server, recorded, which stop-local stops', async () => {
    const runs = await Promise.all([1, 2, 3].map(() => run(['start-local'])));
    const record = JSON.parse(readFileSync(pidFile(), 'utf8'));
    expect(runs.map((r) => r.stdout.split(' at ')[0]).sort()).toEqual(['already running (auto)', 'already running (auto)', 'started (auto)']);
    for (const r of runs) expect(r).toMatchObject({ code: 0, stderr: '', stdout: expect.stringContaining(`(pid ${record.pid})`) });
    expect(await run(['stop-local'])).toMatchObject({ stdout: `stopped the auto memory server at ${url}\n` });
    await expect(client().health()).rejects.toThrow('not reachable');
  });

  test('a lock left by a start-local that died is taken over', async () => {
    const dead = Bun.spawn(['true']);
    await dead.exited;
    mkdirSync(join(dir, 'workspace', '.svc', 'memory'), { recursive: true });
    writeFileSync(join(dir, 'workspace', '.svc', 'memory', 'local-server.lock'), `${dead.pid}\n`);
    await startLocal();
    expect(existsSync(join(dir, 'workspace', '.svc', 'memory', 'local-server.lock'))).toBe(false);
  });

  test('data survives a stop and a start', async () => {
    const ck = legacyCheckpoint('20261101120000_kept');
    await startLocal();
    await run(['migrate', '--checkpoint', ck]);
    await run(['stop-local']);
    await startLocal();
    expect((await run(['health', '--checkpoint', ck])).stdout).toEndWith(', 2 passage(s)\n');
  });

  test('a stale pid file (its process gone) is cleaned up', async () => {
    await startLocal();
    const record = JSON.parse(readFileSync(pidFile(), 'utf8'));
    process.kill(record.pid, 'SIGKILL');
    while ((() => { try { process.kill(record.pid, 0); return true; } catch { return false; } })()) await Bun.sleep(20);
    expect(await run(['stop-local'])).toEqual({ code: 0, stdout: `removed a stale pid file (process ${record.pid} is gone or runs something else)\n`, stderr: '' });
    expect(existsSync(pidFile())).toBe(false);
    // and start-local starts afresh over one
    await startLocal();
  });

  test('a server already answering that is not ours is left alone', async () => {
    const other = startMemoryServer({ port: Number(url.split(':')[2]), host: '127.0.0.1', dataDir: join(dir, 'other-db') });
    try {
      const r = await run(['start-local']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`a memory server already answers at ${url}; it was not started by svc memory start-local, so it is left alone, version 0.1.0\n`);
      expect(existsSync(pidFile())).toBe(false);
    } finally {
      await other.stop();
    }
  });

  test('a server that cannot start: one line with the end of its log, nothing left behind', async () => {
    // something else holds the port and does not speak the memory API
    const squatter = Bun.serve({ port: Number(url.split(':')[2]), hostname: '127.0.0.1', fetch: () => new Response('no', { status: 404 }) });
    try {
      const r = await run(['start-local']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')).toHaveLength(2);
      expect(r.stderr).toStartWith(`svc: the memory server (auto) exited with code 1 before answering at ${url} (log ${join(dir, 'workspace', '.svc', 'memory', 'server.log')}: `);
      expect(r.stderr).toContain('is in use');
      expect(existsSync(pidFile())).toBe(false);
    } finally {
      await squatter.stop(true);
    }
  });

  test('docker, singularity and pip without their runtime: one line naming the fix, exit 1', async () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const noRuntime = { PATH: bin };
    expect(await run(['start-local', '--path', 'docker'], noRuntime)).toEqual({ code: 1, stdout: '', stderr: 'svc: docker is not installed (no docker on PATH) (install Docker, or use --path auto for the embedded server)\n' });
    expect(await run(['start-local', '--path', 'singularity'], noRuntime)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'svc: neither apptainer nor singularity is installed (none on PATH) (install Apptainer (apptainer.org) or SingularityCE, or use --path auto for the embedded server)\n',
    });
    const pip = await run(['start-local', '--path', 'pip'], noRuntime);
    expect(pip).toMatchObject({ code: 1, stdout: '' });
    expect(pip.stderr).toStartWith(`svc: letta is not installed (not in ${join(dir, 'workspace', '.svc', 'memory', 'letta-venv')}, not on PATH) (python3 -m venv `);
    // SVC_MEMORY_BOOTSTRAP_LOCAL picks the path when --path is not given
    expect((await run(['start-local'], { ...noRuntime, SVC_MEMORY_BOOTSTRAP_LOCAL: 'docker' })).stderr).toStartWith('svc: docker is not installed');
    expect(existsSync(pidFile())).toBe(false);
  });

  test('pip runs `letta server` from the workspace venv in the background and stop-local stops it', async () => {
    // a letta stand-in in the venv start-local looks in: it serves the embedded server on the port it is given
    const venvBin = join(dir, 'workspace', '.svc', 'memory', 'letta-venv', 'bin');
    mkdirSync(venvBin, { recursive: true });
    writeFileSync(join(venvBin, 'letta'), `#!/bin/sh\n[ "$1" = server ] || exit 64\n"${SVC}" memory serve --port "$5" --data-dir "${join(dir, 'letta-data')}"\n`);
    chmodSync(join(venvBin, 'letta'), 0o755);
    const r = await run(['start-local', '--path', 'pip']);
    expect(r.stdout).toStartWith(`started (pip) at ${url} (pid `);
    const record = JSON.parse(readFileSync(pidFile(), 'utf8'));
    expect(record.serve).toEqual([join(venvBin, 'letta'), 'server', '--host', '127.0.0.1', '--port', url.split(':')[2]]);
    expect((await run(['stop-local'])).stdout).toBe(`stopped the pip memory server at ${url}\n`);
    await expect(client().health()).rejects.toThrow('not reachable');
  });
});

describe('svc memory prune-local and svc delete', () => {
  test('prune-local lists agents of checkpoints that are gone, exits 2 without --yes, deletes with it', async () => {
    await startLocal();
    const kept = legacyCheckpoint('20261101120000_kept');
    const gone = legacyCheckpoint('20261102120000_gone');
    for (const ck of [kept, gone]) expect((await run(['migrate', '--checkpoint', ck])).code).toBe(0);
    const goneAgent = agentNameFor(gone);
    rmSync(gone, { recursive: true });
    const listed = await run(['prune-local']);
    expect(listed.code).toBe(2);
    expect(listed.stdout).toMatch(new RegExp(`^${goneAgent}  agent-\\S+  ${gone}\\n$`));
    expect(listed.stderr).toBe('svc: 1 agent(s) of deleted checkpoints; pass --yes to delete them\n');
    expect((await client().listAgents()).length).toBe(2);
    const pruned = await run(['prune-local', '--yes']);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toEndWith('deleted 1 agent(s)\n');
    expect((await client().listAgents()).map((a) => a.name)).toEqual([agentNameFor(kept)]);
    expect(await run(['prune-local'])).toEqual({ code: 0, stdout: 'no agents of deleted checkpoints\n', stderr: '' });
  });

  test('an agent without a checkpoint mark: gone on the workspace\'s own server, kept on one other workspaces may share', async () => {
    await startLocal();
    const kept = writeCheckpoint(root, { runId: 'kept' });
    // as the memory skill creates them: named, not marked
    await client().ensureAgent(agentNameFor(kept));
    const orphan = await client().ensureAgent(agentNameFor(join(root, 'deleted_long_ago')));
    const listed = await run(['prune-local']);
    expect(listed).toMatchObject({ code: 2, stdout: `${agentNameFor(join(root, 'deleted_long_ago'))}  ${orphan}  (no checkpoint here has its name)\n` });
    await run(['stop-local']);
    // the same kind of agent on a server this workspace did not start
    const shared = startMemoryServer({ port: Number(url.split(':')[2]), host: '127.0.0.1', dataDir: join(dir, 'shared-db') });
    try {
      await client().ensureAgent(agentNameFor(join(root, 'someone_elses')));
      expect(await run(['prune-local', '--yes'])).toEqual({ code: 0, stdout: '1 agent(s) of no checkpoint here, on a server other workspaces may share: kept\nno agents of deleted checkpoints\n', stderr: '' });
      expect((await client().listAgents()).length).toBe(1);
    } finally {
      await shared.stop();
    }
  });

  test('svc delete removes the checkpoint\'s agent; a backend that is down only warns', async () => {
    await startLocal();
    const ck = legacyCheckpoint('20261101120000_doomed');
    await run(['migrate', '--checkpoint', ck]);
    const name = agentNameFor(ck);
    const r = await svc(['delete', ck, '-y'], { cwd: dir, env });
    expect(r).toEqual({ code: 0, stdout: `deleted ${ck}\ndeleted memory agent ${name}\n`, stderr: '' });
    expect(await client().findAgent(name)).toBeNull();

    await run(['stop-local']);
    const ck2 = writeCheckpoint(root, { runId: 'offline' });
    const offline = await svc(['delete', ck2, '-y'], { cwd: dir, env });
    expect(offline.code).toBe(0);
    expect(offline.stdout).toBe(`deleted ${ck2}\n`);
    expect(offline.stderr).toStartWith(`svc: memory agent ${agentNameFor(ck2)} was not deleted: memory server ${url} (MEMBACKEND_BASE_URL): not reachable`);
    expect(existsSync(ck2)).toBe(false);
  });
});
