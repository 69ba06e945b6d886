import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { call, newRun, ok, removeDir, startTestMemory } from './memory-fixture.ts';

let run: ReturnType<typeof newRun>;
beforeEach(() => {
  run = newRun('unused');
});
afterEach(() => removeDir(run.base));

/** One call of every tool, each as the current node so that writes pass the node check. */
function everyTool(experiments: string): [string, Record<string, unknown>][] {
  return [
    ['add_memory', { node_id: 'n', text: 'x' }],
    ['search_memory', { query: 'x', ancestor_ids: ['root'] }],
    ['get_node_memory', { node_id: 'n' }],
    ['clear_node_memory', { node_id: 'n' }],
    ['get_experiment_context', {}],
    ['add_experiment_result', { node_id: 'n', text: 'x' }],
    ['add_failure_case', { node_id: 'n', text: 'x' }],
    ['add_procedure_memory', { node_id: 'n', text: 'x' }],
    ['add_reflection', { node_id: 'n', text: 'x' }],
    ['add_reproducibility_event', { node_id: 'n', target_entry_id: 'e', status: 'rerun_passed' }],
    ['search_research_memory', { query: 'x', ancestor_ids: ['root'] }],
    ['get_verified_context', { ancestor_ids: ['root'] }],
    ['audit_memory', { experiments_root: experiments }],
    ['consolidate_node_memory', { node_id: 'n', node_report: { node_id: 'n', status: 'failed' }, work_dir: run.work }],
  ];
}

async function answersOfEveryTool(url: string, timeoutS: string) {
  const experiments = join(run.base, 'experiments');
  mkdirSync(experiments);
  const env = { ...run.env('n'), MEMBACKEND_BASE_URL: url, SVC_MEMORY_LETTA_TIMEOUT_S: timeoutS };
  return Promise.all(everyTool(experiments).map(async ([name, args]) => [name, await call(name, args, env)] as const));
}

describe('a memory backend that is down', () => {
  test('a closed port: every tool answers {error} naming the URL, in one line', async () => {
    const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    const url = `http://127.0.0.1:${probe.port}`;
    probe.stop(true);
    for (const [name, answer] of await answersOfEveryTool(url, '10')) {
      expect([name, answer]).toEqual([name, { error: expect.stringContaining(`memory server ${url} (MEMBACKEND_BASE_URL): not reachable`) }]);
      expect('error' in answer && answer.error.includes('\n')).toBe(false);
    }
  });

  // the test's own limit (far above the configured half second) is what catches a tool that hangs
  test(
    'a server that accepts connections and never answers: every tool answers {error} once SVC_MEMORY_LETTA_TIMEOUT_S has passed',
    async () => {
      const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
      const url = `http://127.0.0.1:${silent.port}`;
      try {
        for (const [name, answer] of await answersOfEveryTool(url, '0.5')) {
          expect([name, answer]).toEqual([name, { error: expect.stringMatching(new RegExp(`^memory (server|backend) ${url.replace(/[.]/g, '\\.')}.*0\\.5 s`)) }]);
        }
      } finally {
        silent.stop(true);
      }
    },
    15_000,
  );
});

describe('a memory backend that stalls part way', () => {
  let memory: Awaited<ReturnType<typeof startTestMemory>>;
  let stalling: ReturnType<typeof Bun.serve>;
  beforeAll(async () => {
    memory = await startTestMemory();
    // passes requests on to the real server, except searches, which it never answers
    stalling = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (req) => {
        const url = new URL(req.url);
        if (url.pathname.endsWith('/archival-memory/search')) return new Promise<Response>(() => {});
        return fetch(`${memory.url}${url.pathname}${url.search}`, { method: req.method, headers: req.headers, body: req.body });
      },
    });
  });
  afterAll(async () => {
    stalling.stop(true);
    await memory.stop();
  });

  test(
    'writes succeed; a search that never ends answers {error} within the timeout, and memory works again once the server does',
    async () => {
      const env = { ...run.env('root'), MEMBACKEND_BASE_URL: `http://127.0.0.1:${stalling.port}`, SVC_MEMORY_LETTA_TIMEOUT_S: '0.5' };
      await ok('add_memory', { node_id: 'root', text: 'tiling helps' }, env);
      const answer = await call('search_memory', { query: 'tiling', ancestor_ids: ['root'] }, { ...env, SVC_CURRENT_NODE_ID: 'a' });
      expect(answer).toEqual({ error: expect.stringContaining('0.5 s') });
      const direct = { ...env, MEMBACKEND_BASE_URL: memory.url, SVC_CURRENT_NODE_ID: 'a' };
      expect((await ok('search_memory', { query: 'tiling', ancestor_ids: ['root'] }, direct)).results.map((r: any) => r.text)).toEqual(['tiling helps']);
    },
    15_000,
  );
});
