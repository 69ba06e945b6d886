import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type ScholarServer, startScholarServer } from '../support/scholar-server.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

let dir: string;
let checkpoint: string;
let scholar: ScholarServer;
let arxiv: ScholarServer;
let local: ReturnType<typeof Bun.serve>;
let reached: string[];
beforeEach(() => {
  dir = tempDir();
  checkpoint = join(dir, 'workspace', 'checkpoints', '20260101000000_demo');
  mkdirSync(join(checkpoint, 'uploads'), { recursive: true });
  scholar = startScholarServer({ papers: [{ id: '2401.1', title: 'Cache Tiling for GEMM', abstract: 'Tiles fit the cache.', authors: ['Ada Lovelace'], year: 2024 }] });
  arxiv = startScholarServer({ papers: [{ id: '2402.2', title: 'Loop Tiling on GPUs', abstract: 'Tiles on GPUs.', authors: ['Alan Turing'], year: 2023 }] });
  reached = [];
  // stands for the dashboard and the memory server: on loopback, answering anyone who asks
  local = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      reached.push(new URL(req.url).pathname);
      return Response.json({ memory: 'private notes' });
    },
  });
});
afterEach(() => {
  local.stop(true);
  arxiv.stop();
  scholar.stop();
  removeDir(dir);
});

async function connect(): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' });
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    SVC_ROOT: dir,
    SVC_CHECKPOINT_DIR: checkpoint,
    SVC_RETRIEVAL_BACKEND: 'scholar_a',
    SVC_SCHOLAR_A_URL: scholar.url,
    SVC_SCHOLAR_B_URL: arxiv.url,
    // no model answers: collect_references_iterative goes on with derived queries
    SVC_BACKEND: 'openai-compatible',
    LLM_API_BASE: 'http://127.0.0.1:9/v1',
    SVC_MODEL: 'm',
    SVC_LLM_MAX_RETRIES: '0',
  };
  await client.connect(new StdioClientTransport({ command: SVC, args: ['skill', 'serve', 'web-skill'], env, cwd: dir, stderr: 'pipe' }));
  return client;
}

const json = (r: Record<string, unknown>) => JSON.parse(((r.content as { text: string }[])[0] ?? { text: '' }).text);

describe('svc skill serve web-skill', () => {
  test('its nine tools over stdio; set_retrieval_backend holds for the process; references written to the checkpoint', async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['web_search', 'fetch_url', 'search_arxiv', 'search_scholar', 'search_papers', 'set_retrieval_backend', 'collect_references_iterative', 'list_uploaded_files', 'read_uploaded_file']);

      const before = json(await client.callTool({ name: 'search_papers', arguments: { query: 'tiling' } }));
      expect([before.backend, before.papers.map((p: { title: string }) => p.title)]).toEqual(['scholar_a', ['Cache Tiling for GEMM']]);
      expect(json(await client.callTool({ name: 'set_retrieval_backend', arguments: { backend: 'scholar_b' } }))).toEqual({ backend: 'scholar_b', previous: 'scholar_a' });
      const after = json(await client.callTool({ name: 'search_papers', arguments: { query: 'tiling' } }));
      expect([after.backend, after.papers.map((p: { title: string }) => p.title)]).toEqual(['scholar_b', ['Loop Tiling on GPUs']]);
      const bad = await client.callTool({ name: 'set_retrieval_backend', arguments: { backend: 'bing' } });
      expect(bad.isError).toBe(true);
      expect(json(bad).error).toMatch(/^set_retrieval_backend: backend must be scholar_a, scholar_b or both, got 'bing'/);
      expect(json(await client.callTool({ name: 'set_retrieval_backend', arguments: { backend: 'both' } }))).toEqual({ backend: 'both', previous: 'scholar_b' });

      const refs = json(await client.callTool({ name: 'collect_references_iterative', arguments: { experiment_summary: 'Tiling loops for caches and GPUs.', keywords: 'tiling', min_papers: 2 } }));
      expect(refs).toMatchObject({ count: 2, complete: true, backend: 'both', stopped: 'enough', bib_file: join(checkpoint, 'refs.bib') });
      expect(JSON.parse(readFileSync(join(checkpoint, 'related_refs.json'), 'utf8'))).toEqual(refs);
      expect(readFileSync(join(checkpoint, 'refs.bib'), 'utf8')).toContain('@misc{lovelace2024cache,');
    } finally {
      await client.close();
    }
  });

  test('fetch_url cannot reach a server of this machine; web_search without a key says which to set; uploads are read, traversal refused', async () => {
    writeFileSync(join(checkpoint, 'uploads', 'notes.txt'), 'baseline 1200 comparisons\n');
    writeFileSync(join(checkpoint, 'tree.json'), '{"nodes":[]}');
    const client = await connect();
    try {
      for (const url of [`http://127.0.0.1:${local.port}/v1/agents`, `http://localhost:${local.port}/api/settings`]) {
        const refused = await client.callTool({ name: 'fetch_url', arguments: { url } });
        expect(refused.isError).toBe(true);
        expect(json(refused).error).toMatch(/^fetch_url refuses (127\.0\.0\.1|localhost):\d+: .*loopback address \(fetch_url reaches only the public internet; .* SVC_WEB_ALLOW_PRIVATE=1\)$/);
      }
      expect(reached).toEqual([]);

      const search = await client.callTool({ name: 'web_search', arguments: { query: 'loop tiling' } });
      expect(search.isError).toBe(true);
      expect(json(search).error).toMatch(/^web_search: no web search provider is configured: BRAVE_API_KEY is not set \(set BRAVE_API_KEY/);

      expect(json(await client.callTool({ name: 'list_uploaded_files', arguments: {} })).files.map((f: { name: string }) => f.name)).toEqual(['notes.txt']);
      expect(json(await client.callTool({ name: 'read_uploaded_file', arguments: { filename: 'notes.txt' } })).text).toBe('baseline 1200 comparisons\n');
      const escape = await client.callTool({ name: 'read_uploaded_file', arguments: { filename: '../tree.json' } });
      expect(escape.isError).toBe(true);
      expect(json(escape).error).toMatch(/^uploaded file '\.\.\/tree\.json' is outside /);
    } finally {
      await client.close();
    }
  });

  test('offline (the retrieval endpoint a closed port): every literature tool answers at once with zero papers and a note', async () => {
    scholar.stop();
    arxiv.stop();
    const client = await connect();
    try {
      const started = Date.now();
      for (const [name, args] of [
        ['search_arxiv', { query: 'tiling' }],
        ['search_scholar', { query: 'tiling', extra_queries: ['blocking'] }],
        ['search_papers', { query: 'tiling' }],
        ['collect_references_iterative', { experiment_summary: 'Tiling loops.', keywords: ['tiling', 'blocking'] }],
      ] as const) {
        const r = await client.callTool({ name, arguments: args });
        expect([name, r.isError ?? false]).toEqual([name, false]);
        expect(json(r)).toMatchObject({ papers: [], offline: true, note: expect.stringContaining('is not reachable') });
      }
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(existsSync(join(checkpoint, 'related_refs.json'))).toBe(true);
    } finally {
      await client.close();
    }
  });
});
