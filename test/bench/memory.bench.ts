// The memory server with 100,000 stored passages over 500 nodes: ancestor-restricted search (5
// ancestor node tags, limit 5, so top_k = max(200, 40 * 5)) in-process against a bare count(*)
// over the passages (timed after a first pass, itself reported, that maps the database's pages), and through the client over HTTP against fetching a same-size body from a bare
// Bun.serve; and batched adds per second through the client against plain inserts of the same rows.
// Then the same searches as hybrid ones, with a vector beside every passage.
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { MemoryClient } from '../../src/memory/client.ts';
import { PassageEmbeddings } from '../../src/memory/passage-embeddings.ts';
import { startMemoryServer } from '../../src/memory/server.ts';
import { DATABASE_FILE, MemoryStore } from '../../src/memory/store.ts';
import { median, report } from './measure.ts';
import { scriptedEmbedding } from '../support/model-server-embeddings.ts';
import { startModelServer } from '../support/model-server.ts';
import { removeDir, tempDir } from '../support/svc.ts';

const PASSAGES = Number(process.env.BENCH_MEMORY_PASSAGES ?? 100_000);
const NODES = 500;
const SEARCHES = Number(process.env.BENCH_ROUNDS ?? 200);
const BATCH = 1000;
const TOP_K = Math.max(200, 40 * 5);
const KINDS = ['node_scope', 'react_step', 'experiment_result', 'failure_case', 'procedure', 'reflection', 'reproducibility_event'];

// A fixed seed: every run measures the same texts and queries.
let seed = 20240601;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;

const TERMS = `learning rate batch size optimizer adam sgd momentum warmup cosine schedule validation accuracy loss training epoch gradient clipping dropout weight decay layer norm attention head transformer convolution kernel stride pooling residual embedding dimension vocabulary token sequence length gpu cuda memory throughput latency baseline ablation seed variance metric improvement regression crash timeout nan overflow precision fp16 bf16 checkpoint dataset split augmentation tokenizer perplexity bleu f1 recall calibration temperature sampling beam decoding compile cmake python numpy torch profiling flops parameters scaling contamination evaluation harness reproducibility artifact sha256 figure table hypothesis reviewer`.split(' ');
const FILLER = `the a of to and in for with on at by from was is were be as that this it not but after before over under than then while when all each one two three more less same new best worse better higher lower run step node parent child result value error fixed changed tried kept removed added reduced increased`.split(' ');
// a long tail: made-up identifiers as real notes have (function names, file names, numbers)
const TAIL = Array.from({ length: 4000 }, (_, i) => `${pick(['fn', 'var', 'file', 'exp', 'cfg'])}${i.toString(36)}`);

/** A note of 25 to 80 words: technical terms, common words and a long tail, Zipf-like. */
function note(): string {
  const words: string[] = [];
  const n = 25 + Math.floor(random() * 55);
  for (let i = 0; i < n; i++) {
    const r = random();
    words.push(r < 0.45 ? pick(FILLER) : r < 0.85 ? (TERMS[Math.floor(random() ** 2 * TERMS.length)] as string) : pick(TAIL));
  }
  if (random() < 0.5) words.push(`${(random() * 100).toFixed(2)}%`);
  return words.join(' ');
}

const QUERIES = ['learning rate warmup schedule for better validation accuracy', 'gpu out of memory crash with a large batch size', 'reproducibility of the artifact sha256', 'tokenizer perplexity regression', 'nan loss with fp16 overflow', 'which optimizer worked best'];

const dir = tempDir('svc-bench-memory-');
const server = startMemoryServer({ port: 0, host: '127.0.0.1', dataDir: dir });
const client = new MemoryClient({ baseUrl: server.url, timeoutMs: 60_000 });
const agentId = await client.ensureAgent('bench');

/** Adds through the client in batches; returns adds per second, and fills `rows` with what was sent. */
async function fill(rows: { text: string; tags: string[] }[]): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < PASSAGES; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, PASSAGES - i) }, (_, j) => {
      const node = (i + j) % NODES;
      return { text: note(), tags: [`node:n${node}`, `kind:${KINDS[(i + j) % KINDS.length]}`], metadata: { node_id: `n${node}`, kind: KINDS[(i + j) % KINDS.length] } };
    });
    await client.addPassages(agentId, batch);
    rows.push(...batch);
  }
  return PASSAGES / ((performance.now() - t0) / 1000);
}

/** The same rows inserted into one plain table in one transaction per batch, fsynced like the store. */
function bareInserts(rows: { text: string; tags: string[] }[]): number {
  const db = new Database(join(dir, 'bare.db'));
  db.run('PRAGMA journal_mode = WAL');
  db.run('PRAGMA synchronous = FULL');
  db.run('CREATE TABLE t (text TEXT, tags TEXT)');
  const insert = db.query('INSERT INTO t VALUES (?, ?)');
  const t0 = performance.now();
  for (let i = 0; i < rows.length; i += BATCH) db.transaction(() => rows.slice(i, i + BATCH).forEach((r) => insert.run(r.text, JSON.stringify(r.tags))))();
  const rate = rows.length / ((performance.now() - t0) / 1000);
  db.close();
  return rate;
}

const ancestors = () => Array.from({ length: 5 }, () => `node:n${Math.floor(random() * NODES)}`);

const rows: { text: string; tags: string[] }[] = [];
const addRate = await fill(rows);
const bareRate = bareInserts(rows);
console.log(`${PASSAGES} passages over ${NODES} nodes, added in batches of ${BATCH} through the client`);
const rateLine = (name: string, rate: number, target?: number) =>
  console.log(`${name.padEnd(48)} ${rate.toFixed(0).padStart(9)} /s  ${(bareRate / rate).toFixed(2).padStart(6)}x baseline${target ? `  target >= ${target}/s: ${rate >= target ? 'met' : 'MISSED'}` : ''}`);
rateLine('plain inserts, same rows (baseline)', bareRate);
rateLine('batched adds over HTTP', addRate, 5000);

const store = MemoryStore.open(dir);
const db = new Database(join(dir, DATABASE_FILE), { readonly: true });
const counts: number[] = [];
let found = 0;
/** Times SEARCHES searches of random ancestors, each given the query and its number. */
function timed(search: (query: string, tags: string[], i: number) => number): number[] {
  const times: number[] = [];
  for (let i = 0; i < SEARCHES; i++) {
    const tags = ancestors();
    const query = QUERIES[i % QUERIES.length] as string;
    const t0 = performance.now();
    found += search(query, tags, i);
    times.push(performance.now() - t0);
  }
  return times;
}
const bm25 = (query: string, tags: string[]) => store.searchPassages(agentId, { query, tags, match: 'any', topK: TOP_K }).length;
// the first pass touches most of the database's pages for the first time in this process (each a
// page fault of the memory map) and compiles the ranking code; a server that has run a while does neither
const firstPass = timed(bm25);
found = 0;
const inProcess = timed(bm25);
// in a loop of its own: a full scan between searches would push their pages out of the CPU's caches
for (let i = 0; i < SEARCHES; i++) {
  const t0 = performance.now();
  db.query('SELECT count(*) FROM passages').get();
  counts.push(performance.now() - t0);
}
if (found === 0) throw new Error('the searches found nothing: the benchmark measures no work');
console.log(`\n${SEARCHES} searches, 5 ancestor tags, top_k ${TOP_K}, median (${(found / SEARCHES).toFixed(0)} results each)`);
report('SELECT count(*) FROM passages (baseline)', median(counts), median(counts));
report('  the first pass (cold pages)', median(firstPass), median(counts));
report('ancestor-restricted search, in-process', median(inProcess), median(counts), 5);

const body = JSON.stringify(await client.searchPassages(agentId, QUERIES[0] as string, { tags: ancestors(), topK: TOP_K }));
const bare = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(body, { headers: { 'content-type': 'application/json' } }) });
const overHttp: number[] = [];
const bareHttp: number[] = [];
for (let i = 0; i < SEARCHES; i++) {
  const tags = ancestors();
  let t0 = performance.now();
  await client.searchPassages(agentId, QUERIES[i % QUERIES.length] as string, { tags, topK: TOP_K });
  overHttp.push(performance.now() - t0);
  t0 = performance.now();
  await (await fetch(`http://127.0.0.1:${bare.port}/`)).json();
  bareHttp.push(performance.now() - t0);
}
report(`bare Bun.serve, ${(body.length / 1024).toFixed(0)} KB body (baseline)`, median(bareHttp), median(bareHttp));
report('ancestor-restricted search over HTTP (client)', median(overHttp), median(bareHttp), 10);

// Hybrid search: a vector beside every passage, written straight into the store (embedding 100,000
// texts through HTTP would measure the model server), then the same searches ranked by RRF of
// BM25 and cosine. In-process the query's vector is given; over HTTP the server embeds each query
// through the scripted model server, so that figure includes one embedding round trip.
function fillVectors(model: string, vectorOf: (text: string) => number[]): void {
  const all = db.query<{ id: string; text: string }, []>('SELECT id, text FROM passages').all();
  for (let i = 0; i < all.length; i += 5000) store.setVectors(all.slice(i, i + 5000).map((p) => ({ id: p.id, model, vector: vectorOf(p.text) })));
}
const randomVector = (dims: number) => () => Array.from({ length: dims }, () => random() - 0.5);
/** The warm pass of hybrid searches, after a first one over the rewritten pages; the query's vector is made before the clock starts. */
const hybridInProcess = (model: string, queryVector: (q: string) => number[]): number[] => {
  const vectors = QUERIES.map(queryVector);
  const hybrid = (query: string, tags: string[], i: number) => store.searchPassages(agentId, { query, tags, match: 'any', topK: TOP_K, near: { model, vector: vectors[i % QUERIES.length] as number[] } }).length;
  timed(hybrid);
  const before = found;
  const times = timed(hybrid);
  if (found === before) throw new Error('the hybrid searches found nothing: the benchmark measures no work');
  return times;
};
fillVectors('scripted-embed', scriptedEmbedding);
console.log(`\nhybrid (BM25 + cosine, RRF): a vector beside each of the ${PASSAGES} passages`);
report('hybrid search in-process, 128 dims (scripted)', median(hybridInProcess('scripted-embed', scriptedEmbedding)), median(counts), 5);
// no ancestor scope (a search of the whole agent): every vector of the agent is scanned
const wholeAgent: number[] = [];
for (let i = 0; i < Math.ceil(SEARCHES / 10); i++) {
  const query = QUERIES[i % QUERIES.length] as string;
  const t0 = performance.now();
  store.searchPassages(agentId, { query, tags: [], match: 'any', topK: TOP_K, near: { model: 'scripted-embed', vector: scriptedEmbedding(query) } });
  wholeAgent.push(performance.now() - t0);
}
report('hybrid search of the whole agent (no scope)', median(wholeAgent), median(counts));
const models = startModelServer();
const modelEnv = { HOME: dir, SVC_BACKEND: 'localllm', LOCALLLM_HOST: models.url.replace('http://', ''), MEMBACKEND_EMBEDDING_CONFIG: 'scripted-embed' };
const hybridServer = startMemoryServer({
  port: 0,
  host: '127.0.0.1',
  dataDir: dir,
  env: modelEnv,
});
const hybridClient = new MemoryClient({ baseUrl: hybridServer.url, timeoutMs: 60_000 });
const hybridHttp: number[] = [];
for (let i = 0; i < SEARCHES; i++) {
  const tags = ancestors();
  const t0 = performance.now();
  await hybridClient.searchPassages(agentId, QUERIES[i % QUERIES.length] as string, { tags, topK: TOP_K });
  hybridHttp.push(performance.now() - t0);
}
report('hybrid search over HTTP, query embedded', median(hybridHttp), median(bareHttp), 10);
// what of it is the model: the query's embedding alone, through the same client the server uses
const alone = new PassageEmbeddings(modelEnv);
const embedTimes: number[] = [];
for (let i = 0; i < SEARCHES; i++) {
  const t0 = performance.now();
  await alone.embed('scripted-embed', [QUERIES[i % QUERIES.length] as string], null, 'bench');
  embedTimes.push(performance.now() - t0);
}
report('  of which the query embedding (scripted model)', median(embedTimes), median(bareHttp));
if (models.requests.length !== 2 * SEARCHES) throw new Error(`expected one embedding request per search, got ${models.requests.length - SEARCHES}`);
// a real model's vectors are longer: the scan grows with them
fillVectors('random-768', randomVector(768));
report('hybrid search in-process, 768 dims', median(hybridInProcess('random-768', randomVector(768))), median(counts), 5);

await hybridServer.stop();
models.stop();
await bare.stop(true);
db.close();
store.close();
await server.stop();
removeDir(dir);
