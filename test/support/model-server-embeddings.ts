/**
 * The scripted embeddings model: deterministic vectors that stand in for a real embedding model.
 * A real model places paraphrases near each other; this one does so for the words of its small
 * lexicon of synonym groups (each group one direction), plus a weaker direction per word stem, so
 * "the kernel ran out of shared memory" and "OOM in the CUDA launch" share their strongest
 * directions. It knows only what its lexicon says: a test of retrieval quality with it measures
 * the search's use of vectors, not the quality of any real model.
 */

export const EMBEDDING_DIMS = 128;

/** Synonym groups: words (stems) that mean one thing to the stand-in model. */
const CONCEPTS: readonly (readonly string[])[] = [
  ['oom', 'memory', 'ram', 'vram', 'heap', 'allocation', 'allocate', 'alloc', 'exhaust', 'exhausted'],
  ['gpu', 'cuda', 'kernel', 'device', 'nvidia', 'accelerator', 'warp', 'sm'],
  ['crash', 'fail', 'failure', 'failed', 'error', 'abort', 'aborted', 'segfault', 'fault', 'die', 'died', 'broke', 'broken'],
  ['slow', 'latency', 'lag', 'sluggish', 'delay', 'stall', 'stalled', 'wait'],
  ['fast', 'speed', 'speedup', 'quick', 'throughput', 'faster', 'accelerate', 'rapid'],
  ['accuracy', 'precision', 'correct', 'f1', 'score', 'recall', 'quality'],
  ['loss', 'diverge', 'diverged', 'divergence', 'nan', 'explode', 'exploding', 'unstable', 'instability', 'inf'],
  ['learning', 'lr', 'step', 'rate', 'schedule', 'warmup', 'decay'],
  ['batch', 'minibatch', 'microbatch'],
  ['cache', 'caching', 'tile', 'tiling', 'block', 'blocking', 'locality', 'l1', 'l2'],
  ['matrix', 'matmul', 'gemm', 'multiply', 'multiplication', 'product'],
  ['sort', 'sorting', 'order', 'ordering', 'rank', 'comparison', 'compare', 'comparisons'],
  ['dataset', 'data', 'corpus', 'samples', 'examples', 'split', 'benchmark'],
  ['overfit', 'overfitting', 'memorize', 'memorise', 'generalize', 'generalise', 'generalization'],
  ['regularize', 'regularization', 'dropout', 'weight', 'penalty'],
  ['timeout', 'walltime', 'deadline', 'expired', 'killed', 'limit'],
  ['disk', 'storage', 'filesystem', 'quota', 'space', 'full'],
  ['network', 'connection', 'socket', 'unreachable', 'refused', 'download', 'offline'],
  ['thread', 'threads', 'parallel', 'concurrency', 'concurrent', 'core', 'cores', 'openmp', 'multithread'],
  ['seed', 'random', 'nondeterministic', 'deterministic', 'reproducible', 'reproduce', 'variance'],
  ['install', 'package', 'dependency', 'dependencies', 'import', 'module', 'missing', 'version', 'library'],
  ['compile', 'compiler', 'build', 'flag', 'flags', 'optimize', 'optimization', 'vectorize', 'simd', 'avx'],
  ['baseline', 'reference', 'naive', 'plain', 'unoptimized'],
  ['improve', 'improvement', 'better', 'gain', 'beat', 'outperform', 'win'],
  ['worse', 'regression', 'degrade', 'degraded', 'drop', 'hurt', 'lose'],
  ['attention', 'transformer', 'head', 'heads', 'context', 'token', 'tokens', 'sequence'],
  ['precision16', 'fp16', 'bf16', 'half', 'mixed', 'quantize', 'quantization', 'int8'],
  ['gradient', 'grad', 'backward', 'backprop', 'clip', 'clipping', 'norm'],
  ['checkpoint', 'save', 'resume', 'restart', 'snapshot'],
  ['plot', 'figure', 'chart', 'graph', 'axis', 'visualize'],
];

const STOP = new Set(['the', 'a', 'an', 'of', 'in', 'on', 'at', 'to', 'and', 'or', 'is', 'was', 'were', 'be', 'it', 'its', 'for', 'with', 'by', 'as', 'that', 'this', 'from', 'when', 'out', 'ran', 'run', 'we', 'our']);

const CONCEPT_OF = new Map<string, number>();
CONCEPTS.forEach((group, i) => {
  for (const w of group) CONCEPT_OF.set(w, i);
});

/** A crude stem: the stand-in matches "allocations" to "allocation". */
function stem(word: string): string {
  for (const end of ['ations', 'ation', 'ings', 'ing', 'ed', 'es', 's']) {
    if (word.length > end.length + 3 && word.endsWith(end)) {
      const base = word.slice(0, -end.length);
      if (CONCEPT_OF.has(base)) return base;
    }
  }
  return word;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/** The stand-in model's vector of a text: unit length, EMBEDDING_DIMS long, the same on every call. */
export function scriptedEmbedding(text: string): number[] {
  const v = new Array<number>(EMBEDDING_DIMS).fill(0);
  const add = (key: string, weight: number) => {
    const h = hash(key);
    v[h % EMBEDDING_DIMS] = (v[h % EMBEDDING_DIMS] ?? 0) + ((h >>> 16) & 1 ? weight : -weight);
  };
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (STOP.has(raw)) continue;
    const word = stem(raw);
    const concept = CONCEPT_OF.get(word) ?? CONCEPT_OF.get(raw);
    if (concept !== undefined) add(`concept:${concept}`, 3);
    add(`word:${word}`, 1);
  }
  const norm = Math.hypot(...v);
  if (norm === 0) v[0] = 1;
  return norm === 0 ? v : v.map((x) => x / norm);
}

/** Tokens the stand-in counts for a text: its words. */
const tokensOf = (texts: string[]) => texts.reduce((n, t) => n + (t.match(/\S+/g)?.length ?? 0), 0);

function inputs(body: Record<string, unknown>): string[] | null {
  const input = body.input;
  if (typeof input === 'string') return [input];
  return Array.isArray(input) && input.every((t) => typeof t === 'string') ? input : null;
}

/** OpenAI's `POST /v1/embeddings`: `{data: [{embedding, index}], usage}`; an unknown model is a 404. */
export function openaiEmbeddings(body: Record<string, unknown>, models: readonly string[]): Response {
  const texts = inputs(body);
  const model = String(body.model ?? '');
  if (!texts) return Response.json({ error: { message: "'input' must be a string or a list of strings", type: 'invalid_request_error' } }, { status: 400 });
  if (!models.includes(model)) return Response.json({ error: { message: `The model '${model}' does not exist`, type: 'invalid_request_error', code: 'model_not_found' } }, { status: 404 });
  const tokens = tokensOf(texts);
  return Response.json({ object: 'list', model, data: texts.map((t, index) => ({ object: 'embedding', index, embedding: scriptedEmbedding(t) })), usage: { prompt_tokens: tokens, total_tokens: tokens } });
}

/** Ollama's `POST /api/embed`: `{model, embeddings, prompt_eval_count}`; an unknown model is a 404. */
export function ollamaEmbed(body: Record<string, unknown>, models: readonly string[]): Response {
  const texts = inputs(body);
  const model = String(body.model ?? '');
  if (!texts) return Response.json({ error: 'invalid input type' }, { status: 400 });
  if (!models.includes(model)) return Response.json({ error: `model "${model}" not found, try pulling it first` }, { status: 404 });
  return Response.json({ model, embeddings: texts.map(scriptedEmbedding), total_duration: 1_000_000, load_duration: 100_000, prompt_eval_count: tokensOf(texts) });
}
