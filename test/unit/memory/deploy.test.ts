import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deploymentName, dockerPlan } from '../../../src/memory/deploy/docker.ts';
import { embeddedPlan } from '../../../src/memory/deploy/embedded.ts';
import { stopLocal } from '../../../src/memory/deploy/local.ts';
import { commandLineOf, isOurProcess, type LocalRecord, localDir, readRecord, recordFile, writeRecord } from '../../../src/memory/deploy/local-state.ts';
import { findLetta, pipPlan } from '../../../src/memory/deploy/pip.ts';
import { planFor } from '../../../src/memory/deploy/plan.ts';
import { singularityPlan } from '../../../src/memory/deploy/singularity.ts';
import { localTarget } from '../../../src/memory/deploy/target.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let ws: string;
let emptyPath: string;
const children: Bun.Subprocess[] = [];
beforeEach(() => {
  ws = tempDir();
  emptyPath = join(ws, 'no-bin');
  mkdirSync(emptyPath);
});
afterEach(async () => {
  for (const c of children.splice(0)) {
    c.kill('SIGKILL');
    await c.exited;
  }
  removeDir(ws);
});

const ctx = () => ({ workspace: ws, port: 8283, host: '127.0.0.1', env: { PATH: emptyPath } });
const name = () => deploymentName(ws);

describe('the command line each path runs', () => {
  test('auto: this program\'s own memory serve, its database under .svc/memory', () => {
    const plan = embeddedPlan({ ...ctx(), port: 9001 });
    expect(plan.serve?.slice(-8)).toEqual(['memory', 'serve', '--host', '127.0.0.1', '--port', '9001', '--data-dir', join(ws, '.svc', 'memory', 'data')]);
    expect(plan.serve?.[0]).toBe(process.execPath);
    expect(plan).toMatchObject({ path: 'auto', setup: [], teardown: [] });
  });

  test('docker: a detached Letta container on the loopback port, data in a named volume', () => {
    expect(name()).toMatch(/^svc-memory-[0-9a-f]{8}$/);
    const plan = dockerPlan({ ...ctx(), port: 18283 }, '/usr/bin/docker');
    expect(plan.setup).toEqual([
      ['/usr/bin/docker', 'run', '-d', '--rm', '--name', name(), '--label', `svc.workspace=${ws}`, '-p', '127.0.0.1:18283:8283', '-v', `${name()}-pgdata:/var/lib/postgresql/data`, 'letta/letta:latest'],
    ]);
    expect(plan.serve).toBeNull();
    expect(plan.teardown).toEqual([['/usr/bin/docker', 'stop', name()]]);
  });

  test('singularity: an instance of the docker image, its runscript run in it, stopped by name', () => {
    const plan = singularityPlan(ctx(), '/opt/apptainer/bin/apptainer');
    const pgdata = join(ws, '.svc', 'memory', 'letta-pgdata');
    expect(plan.setup).toEqual([['/opt/apptainer/bin/apptainer', 'instance', 'start', '--writable-tmpfs', '--bind', `${pgdata}:/var/lib/postgresql/data`, 'docker://letta/letta:latest', name()]]);
    expect(plan.serve).toEqual(['/opt/apptainer/bin/apptainer', 'run', `instance://${name()}`]);
    expect(plan.teardown).toEqual([['/opt/apptainer/bin/apptainer', 'instance', 'stop', name()]]);
    expect(plan.dirs).toEqual([pgdata]);
  });

  test('singularity shares the host network: a port other than Letta\'s is refused', () => {
    expect(() => singularityPlan({ ...ctx(), port: 9000 }, '/usr/bin/singularity')).toThrow('Letta in singularity listens on port 8283, but MEMBACKEND_BASE_URL names port 9000');
  });

  test('pip: letta server on the loopback address', () => {
    expect(pipPlan({ ...ctx(), port: 8300 }, '/v/bin/letta').serve).toEqual(['/v/bin/letta', 'server', '--host', '127.0.0.1', '--port', '8300']);
  });

  test('a backend URL on [::1]: every path binds ::1, where the client will look', () => {
    const v6 = { ...ctx(), host: '::1' };
    expect(embeddedPlan(v6).serve).toContain('::1');
    expect(pipPlan(v6, '/v/bin/letta').serve).toEqual(['/v/bin/letta', 'server', '--host', '::1', '--port', '8283']);
    expect(dockerPlan(v6, '/usr/bin/docker').setup[0]).toContain('[::1]:8283:8283');
  });
});

describe('a missing runtime fails in one line naming the fix', () => {
  test('docker not on PATH', async () => {
    await expect(planFor('docker', ctx())).rejects.toThrow('docker is not installed (no docker on PATH)');
    await expect(planFor('docker', ctx())).rejects.toMatchObject({ hint: 'install Docker, or use --path auto for the embedded server' });
  });

  test.skipIf(Bun.which('docker') === null)('a docker daemon that does not answer', async () => {
    const env = { PATH: process.env.PATH ?? '', DOCKER_HOST: `unix://${join(ws, 'no-daemon.sock')}` };
    const err = await planFor('docker', { ...ctx(), env }).catch((e: Error & { hint?: string }) => e);
    expect((err as Error).message).toStartWith('the docker daemon is not reachable: ');
    expect((err as { hint?: string }).hint).toBe('start it (sudo systemctl start docker, or dockerd &), or use --path auto');
  });

  test('neither apptainer nor singularity', async () => {
    await expect(planFor('singularity', ctx())).rejects.toThrow('neither apptainer nor singularity is installed (none on PATH)');
  });

  test('letta not installed: the fix names the venv start-local looks in', async () => {
    const venv = join(ws, '.svc', 'memory', 'letta-venv');
    const err = (await planFor('pip', ctx()).catch((e) => e)) as Error & { hint: string };
    expect(err.message).toBe(`letta is not installed (not in ${venv}, not on PATH)`);
    expect(err.hint).toBe(`python3 -m venv ${venv} && ${venv}/bin/pip install letta, or use --path auto for the embedded server`);
  });

  test('letta is found in the workspace venv first, else on PATH', () => {
    const bin = join(ws, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'letta'), '#!/bin/sh\n');
    chmodSync(join(bin, 'letta'), 0o755);
    expect(findLetta(ws, { PATH: bin })).toBe(join(bin, 'letta'));
    const venvBin = join(ws, '.svc', 'memory', 'letta-venv', 'bin');
    mkdirSync(venvBin, { recursive: true });
    writeFileSync(join(venvBin, 'letta'), '#!/bin/sh\n');
    expect(findLetta(ws, { PATH: bin })).toBe(join(venvBin, 'letta'));
  });
});

describe('localTarget', () => {
  test('the port of MEMBACKEND_BASE_URL; a remote or malformed URL is refused', () => {
    expect(localTarget({})).toEqual({ url: 'http://localhost:8283', port: 8283, host: '127.0.0.1' });
    expect(localTarget({ MEMBACKEND_BASE_URL: 'http://127.0.0.1:9000/' })).toEqual({ url: 'http://127.0.0.1:9000', port: 9000, host: '127.0.0.1' });
    expect(localTarget({ MEMBACKEND_BASE_URL: 'http://[::1]:9000' })).toEqual({ url: 'http://[::1]:9000', port: 9000, host: '::1' });
    expect(() => localTarget({ MEMBACKEND_BASE_URL: 'https://memory.example.org' })).toThrow('MEMBACKEND_BASE_URL must be an http:// URL for a local server');
    expect(() => localTarget({ MEMBACKEND_BASE_URL: 'http://10.1.2.3:8283' })).toThrow('MEMBACKEND_BASE_URL (http://10.1.2.3:8283) is not on this machine');
    expect(() => localTarget({ MEMBACKEND_BASE_URL: 'http://[::1' })).toThrow("MEMBACKEND_BASE_URL is not a URL: 'http://[::1'");
  });
});

/** `sleep 30` in a session of its own, once it runs sleep (a fresh child shows the parent's command line until its exec). */
async function sleeping(): Promise<Bun.Subprocess> {
  const p = Bun.spawn(['sleep', '30'], { stdio: ['ignore', 'ignore', 'ignore'], detached: true });
  children.push(p);
  while (commandLineOf(p.pid)?.[0] !== 'sleep') await Bun.sleep(5);
  return p;
}

describe('the pid file', () => {
  const record = (pid: number | null, serve: string[] | null): LocalRecord => ({ path: 'auto', url: 'http://127.0.0.1:1', port: 1, pid, serve, teardown: [], log: join(localDir(ws), 'server.log'), started_at: '2026-01-01T00:00:00Z' });

  test('a process is ours only while it runs the recorded command', async () => {
    const sleeper = await sleeping();
    const sleep = Bun.which('sleep') ?? 'sleep';
    expect(isOurProcess(record(sleeper.pid, ['sleep', '30']))).toBe(true);
    expect(isOurProcess(record(sleeper.pid, [sleep, '31']))).toBe(false);
    expect(isOurProcess(record(sleeper.pid, ['letta', '30']))).toBe(false);
    expect(isOurProcess(record(null, ['sleep', '30']))).toBe(false);
    sleeper.kill('SIGKILL');
    await sleeper.exited;
    expect(isOurProcess(record(sleeper.pid, ['sleep', '30']))).toBe(false);
  });

  test('stop-local without a pid file stops nothing', async () => {
    expect(await stopLocal(ws, { PATH: emptyPath })).toEqual({ stopped: false, message: 'no local memory server was started here (no pid file)', warnings: [] });
  });

  test('a pid file whose process runs something else is removed, and the process is left alone', async () => {
    const other = await sleeping();
    writeRecord(ws, record(other.pid, ['svc', 'memory', 'serve', '--port', '1']));
    const r = await stopLocal(ws, { PATH: emptyPath });
    expect(r).toEqual({ stopped: false, message: `removed a stale pid file (process ${other.pid} is gone or runs something else)`, warnings: [] });
    expect(existsSync(recordFile(ws))).toBe(false);
    expect(other.exitCode).toBeNull();
  });

  test('stop-local stops the recorded process when it is ours', async () => {
    const ours = await sleeping();
    writeRecord(ws, record(ours.pid, ['sleep', '30']));
    const r = await stopLocal(ws, { PATH: emptyPath });
    expect(r.stopped).toBe(true);
    expect(await ours.exited).not.toBe(0);
    expect(readRecord(ws)).toBeNull();
  });

  test('a container whose runtime is gone: the pid file is dropped with a warning naming the command', async () => {
    writeRecord(ws, { ...record(null, null), path: 'docker', teardown: [['docker', 'stop', name()]] });
    const r = await stopLocal(ws, { PATH: emptyPath });
    expect(r.warnings).toEqual([`docker is no longer available; did not run: docker stop ${name()}`]);
    expect(readRecord(ws)).toBeNull();
  });
});
