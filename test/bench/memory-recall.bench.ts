// Retrieval quality of memory search: recall@5 of paraphrased queries over a fixed research log
// (test/fixtures/memory-recall/corpus.json: 76 passages over a six-node tree, 26 queries with their
// answering passages marked), each query restricted to its node's ancestors as the memory skill
// searches. BM25 alone (the server without an embedding model) is the baseline; the hybrid is the
// same server with the scripted embeddings model of test/support standing in for a real one. That
// stand-in knows only its small synonym lexicon, so the figure measures the search's use of
// vectors, not the quality of any real model.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryClient } from '../../src/memory/client.ts';
import { startMemoryServer } from '../../src/memory/server.ts';
import { startModelServer } from '../support/model-server.ts';
import { removeDir, tempDir } from '../support/svc.ts';

type Corpus = {
  tree: Record<string, string | null>;
  passages: { id: string; node: string; text: string }[];
  queries: { query: string; node: string; relevant: string[] }[];
};

const K = 5;
const corpus = JSON.parse(readFileSync(join(import.meta.dir, '../fixtures/memory-recall/corpus.json'), 'utf8')) as Corpus;

/** The node and its ancestors, as the memory skill's search scope. */
function ancestors(node: string): string[] {
  const out: string[] = [];
  for (let n: string | null | undefined = node; n; n = corpus.tree[n]) out.push(n);
  return out;
}

const dir = tempDir('svc-bench-recall-');
const models = startModelServer();
const env = { HOME: dir, SVC_BACKEND: 'localllm', LOCALLLM_HOST: models.url.replace('http://', ''), SVC_LLM_MAX_RETRIES: '0' };

/** Mean recall@K over the queries against a server with (or without) an embedding model. */
async function recallAt(embedding: string | null): Promise<{ recall: number; hits: number; wanted: number; perQuery: number[] }> {
  const server = startMemoryServer({ port: 0, host: '127.0.0.1', dataDir: join(dir, embedding ?? 'bm25'), env: embedding ? { ...env, MEMBACKEND_EMBEDDING_CONFIG: embedding } : env });
  try {
    const client = new MemoryClient({ baseUrl: server.url, timeoutMs: 30_000 });
    const agent = await client.ensureAgent('recall');
    const stored = await client.addPassages(agent, corpus.passages.map((p) => ({ text: p.text, tags: [`node:${p.node}`], metadata: { node_id: p.node, kind: 'node_scope' } })));
    const fixtureId = new Map(stored.map((s, i) => [s.id, corpus.passages[i]?.id]));
    const perQuery: number[] = [];
    let hits = 0;
    let wanted = 0;
    for (const q of corpus.queries) {
      const found = await client.searchPassages(agent, q.query, { tags: ancestors(q.node).map((n) => `node:${n}`), topK: K });
      const top = new Set(found.map((p) => fixtureId.get(p.id)));
      const got = q.relevant.filter((id) => top.has(id)).length;
      perQuery.push(got / q.relevant.length);
      hits += got;
      wanted += q.relevant.length;
    }
    return { recall: perQuery.reduce((a, b) => a + b, 0) / perQuery.length, hits, wanted, perQuery };
  } finally {
    await server.stop();
  }
}

const bm25 = await recallAt(null);
const hybrid = await recallAt('scripted-embed');
console.log(`${corpus.passages.length} passages over ${Object.keys(corpus.tree).length} nodes, ${corpus.queries.length} paraphrased queries, each within its node's ancestors`);
console.log('(the scripted embeddings model stands in for a real one: it knows only its synonym lexicon)');
const line = (name: string, r: { recall: number; hits: number; wanted: number }) =>
  console.log(`${name.padEnd(48)} ${r.recall.toFixed(3).padStart(9)}     ${(r.recall / bm25.recall).toFixed(2).padStart(6)}x baseline  (${r.hits} of ${r.wanted} answers in the top ${K})`);
line(`recall@${K}, BM25 alone (baseline)`, bm25);
line(`recall@${K}, hybrid BM25 + vectors (RRF)`, hybrid);
const better = hybrid.perQuery.filter((r, i) => r > (bm25.perQuery[i] ?? 0)).length;
const worse = hybrid.perQuery.filter((r, i) => r < (bm25.perQuery[i] ?? 0)).length;
console.log(`hybrid against BM25 alone: ${better} queries recall more, ${worse} recall less, ${corpus.queries.length - better - worse} the same`);

models.stop();
removeDir(dir);
