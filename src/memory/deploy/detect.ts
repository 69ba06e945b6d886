import { readdirOrNull } from '../../core/paths.ts';
import { basename } from 'node:path';
import type { Env } from '../../core/config/env-vars.ts';
import { oneLine } from '../../core/errors.ts';
import { parseLine } from '../../core/json-object.ts';
import { MemoryClient } from '../client.ts';
import { LETTA_PORT } from './docker.ts';
import { commandLineOf, type LocalPath, readRecord, recordIsOurs } from './local-state.ts';
import { lastLine, runCommand } from '../../core/run-command.ts';
import { backendUrl } from './target.ts';

/** One memory server found running, and whether it answers its health check. */
export type Deployment = {
  path: LocalPath;
  /** how it was found: pid file, docker ps, apptainer/singularity instance list, process list */
  found_by: string;
  /** pid, container or instance name */
  id: string;
  url: string | null;
  /** started by svc memory start-local for this workspace */
  managed: boolean;
  reachable: boolean;
  version?: string;
  error?: string;
};

export type Detection = {
  /** MEMBACKEND_BASE_URL, the server svc uses */
  url: string;
  reachable: boolean;
  version?: string;
  error?: string;
  deployments: Deployment[];
  /** what each probe could not look at (docker missing, daemon down, ...) */
  probes: Record<string, string>;
};

const PROBE_TIMEOUT_MS = 5000;

/**
 * Which memory servers run on this machine, by probing: our pid file, `docker ps` for Letta
 * containers, `apptainer|singularity instance list` for Letta instances, and the process list for
 * `letta server` and `svc memory serve`. Each is health-checked; the configured URL too.
 */
export async function detectDeployments(workspace: string, env: Env): Promise<Detection> {
  const probes: Record<string, string> = {};
  const found: Omit<Deployment, 'reachable'>[] = [];
  const record = readRecord(workspace);
  if (record !== null) {
    found.push({ path: record.path, found_by: 'pid file', id: record.pid === null ? record.path : String(record.pid), url: record.url, managed: recordIsOurs(record) });
  }
  const seenPids = new Set(record?.pid != null ? [record.pid] : []);
  found.push(...(await dockerContainers(env, probes)), ...(await singularityInstances(env, probes)), ...serverProcesses(seenPids, probes));
  const [configured, ...checked] = await Promise.all([health(backendUrl(env)), ...found.map((d) => health(d.url))]);
  return {
    url: backendUrl(env),
    ...(configured ?? { reachable: false }),
    deployments: found.map((d, i) => ({ ...d, ...(checked[i] ?? { reachable: false }) })),
    probes,
  };
}

async function health(url: string | null): Promise<{ reachable: boolean; version?: string; error?: string }> {
  if (url === null) return { reachable: false, error: 'no port published' };
  try {
    const h = await new MemoryClient({ baseUrl: url, timeoutMs: 2000 }).health();
    return { reachable: true, version: h.version };
  } catch (err) {
    return { reachable: false, error: oneLine(err) };
  }
}

async function dockerContainers(env: Env, probes: Record<string, string>): Promise<Omit<Deployment, 'reachable'>[]> {
  const docker = Bun.which('docker', { PATH: env.PATH ?? '' });
  if (docker === null) {
    probes.docker = 'not installed';
    return [];
  }
  const r = await runCommand([docker, 'ps', '--format', '{{json .}}'], env, PROBE_TIMEOUT_MS);
  if (r.code !== 0) {
    probes.docker = `unreachable: ${r.timedOut ? 'no answer' : (lastLine(r.stderr) ?? `exit ${r.code}`)}`;
    return [];
  }
  probes.docker = 'ok';
  return r.stdout
    .split('\n')
    .map((l) => parseLine(l))
    .filter((c) => typeof c?.Image === 'string' && c.Image.startsWith('letta/letta'))
    .map((c) => {
      const port = /(?:^|,\s*)[\d.:[\]]*:(\d+)->8283\/tcp/.exec(String(c?.Ports ?? ''))?.[1];
      return { path: 'docker', found_by: 'docker ps', id: String(c?.Names ?? c?.ID), url: port ? `http://127.0.0.1:${port}` : null, managed: String(c?.Names ?? '').startsWith('svc-memory-') };
    });
}

async function singularityInstances(env: Env, probes: Record<string, string>): Promise<Omit<Deployment, 'reachable'>[]> {
  const out: Omit<Deployment, 'reachable'>[] = [];
  for (const name of ['apptainer', 'singularity']) {
    const bin = Bun.which(name, { PATH: env.PATH ?? '' });
    if (bin === null) {
      probes[name] = 'not installed';
      continue;
    }
    const r = await runCommand([bin, 'instance', 'list', '--json'], env, PROBE_TIMEOUT_MS);
    const list = parseLine(r.stdout)?.instances;
    if (r.code !== 0 || !Array.isArray(list)) {
      probes[name] = `instance list failed: ${lastLine(r.stderr) ?? `exit ${r.code}`}`;
      continue;
    }
    probes[name] = 'ok';
    for (const i of list as Record<string, unknown>[]) {
      if (!String(i.img ?? i.image ?? '').includes('letta')) continue;
      out.push({ path: 'singularity', found_by: `${name} instance list`, id: String(i.instance), url: `http://127.0.0.1:${LETTA_PORT}`, managed: String(i.instance).startsWith('svc-memory-') });
    }
  }
  return out;
}

/** `letta server` (pip) and `svc memory serve` (embedded) processes, from /proc. */
function serverProcesses(skip: Set<number>, probes: Record<string, string>): Omit<Deployment, 'reachable'>[] {
  const pids = readdirOrNull('/proc')?.filter((n) => /^\d+$/.test(n)).map(Number);
  if (pids === undefined) {
    probes.processes = 'no /proc to list processes from';
    return [];
  }
  probes.processes = 'ok';
  const out: Omit<Deployment, 'reachable'>[] = [];
  for (const pid of pids) {
    if (skip.has(pid) || pid === process.pid) continue;
    const args = commandLineOf(pid);
    if (args === null) continue;
    const at = (word: string) => args.findIndex((a, i) => a === word && i > 0);
    const letta = args.findIndex((a) => basename(a) === 'letta');
    const serve = at('serve');
    let path: LocalPath | null = null;
    if (letta >= 0 && args[letta + 1] === 'server') path = 'pip';
    else if (serve > 0 && args[serve - 1] === 'memory') path = 'auto';
    if (path === null) continue;
    const portAt = at('--port');
    const port = portAt > 0 ? args[portAt + 1] : String(LETTA_PORT);
    out.push({ path, found_by: 'process list', id: String(pid), url: `http://127.0.0.1:${port}`, managed: false });
  }
  return out;
}
