import { afterAll, afterEach, beforeAll, beforeEach } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { callTool } from '../../../../src/mcp/serve.ts';
import { type MemoryServer, startMemoryServer } from '../../../../src/memory/server.ts';
import memorySkill from '../../../../src/skills/memory/index.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

export type Env = Record<string, string | undefined>;
export type Answer = { result: any } | { error: string };

const tools = new Map(memorySkill.tools.map((t) => [t.name, t]));

/** The real embedded memory server on a free port with its own data directory, for one test file. */
export async function startTestMemory(): Promise<{ server: MemoryServer; url: string; stop: () => Promise<void> }> {
  const dataDir = tempDir('svc-memdata-');
  const server = startMemoryServer({ port: 0, host: '127.0.0.1', dataDir });
  return {
    server,
    url: server.url,
    stop: async () => {
      await server.stop();
      removeDir(dataDir);
    },
  };
}

export type TestMemory = Awaited<ReturnType<typeof startTestMemory>>;
export type TestRun = ReturnType<typeof newRun>;

/** One embedded server for the whole test file and a fresh run for each test, in `t.memory` and `t.run`. */
export function serverPerFileRunPerTest(): { memory: TestMemory; run: TestRun } {
  const t = {} as { memory: TestMemory; run: TestRun };
  beforeAll(async () => {
    t.memory = await startTestMemory();
  });
  afterAll(() => t.memory.stop());
  beforeEach(() => {
    t.run = newRun(t.memory.url);
  });
  afterEach(() => removeDir(t.run.base));
  return t;
}

/** A fresh checkpoint and work directory, and the environment a run gives the skill. */
export function newRun(url: string): { base: string; checkpoint: string; work: string; env: (node?: string, extra?: Env) => Env } {
  const base = tempDir();
  const checkpoint = join(base, 'checkpoint');
  const work = join(base, 'work');
  mkdirSync(checkpoint);
  mkdirSync(work);
  return {
    base,
    checkpoint,
    work,
    env: (node, extra = {}) => ({ SVC_CHECKPOINT_DIR: checkpoint, SVC_WORK_DIR: work, MEMBACKEND_BASE_URL: url, ...(node ? { SVC_CURRENT_NODE_ID: node } : {}), ...extra }),
  };
}

/** Calls a tool as the skill server answers it: `{result}`, or `{error}` with the one-line message. */
export async function call(name: string, args: Record<string, unknown>, env: Env): Promise<Answer> {
  const reply = await callTool(tools, name, args, { signal: new AbortController().signal, env });
  const first = reply.content[0];
  const value = JSON.parse(first?.type === 'text' ? first.text : 'null');
  return reply.isError ? { error: value.error } : { result: value };
}

/** The result of a call that must succeed. */
export async function ok(name: string, args: Record<string, unknown>, env: Env): Promise<any> {
  const a = await call(name, args, env);
  if ('error' in a) throw new Error(`${name} failed: ${a.error}`);
  return a.result;
}

/**
 * Records the requests this process sends (method and URL), passing them on unchanged: an
 * observation of the HTTP protocol between the client and the server, not a stand-in for either.
 */
export function watchRequests(): { requests: { method: string; url: URL }[]; stop: () => void } {
  const real = globalThis.fetch;
  const requests: { method: string; url: URL }[] = [];
  const watching = ((input: string | URL | Request, init?: RequestInit) => {
    requests.push({ method: init?.method ?? 'GET', url: new URL(input instanceof Request ? input.url : String(input)) });
    return real(input, init);
  }) as typeof fetch;
  globalThis.fetch = watching;
  return { requests, stop: () => void (globalThis.fetch = real) };
}

export { removeDir };
