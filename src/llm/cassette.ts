import { appendFileSync, existsSync, statSync } from 'node:fs';
import { headOf } from '../core/checkpoint/files-type.ts';
import { readTextOrNull } from '../core/paths.ts';
import { writeFileAtomic } from '../core/atomic.ts';
import { diskError, InputError, NotFoundError } from '../core/errors.ts';
import { parseLine } from '../core/json-object.ts';
import { isMapping } from '../core/values.ts';
import { ReplayDivergedError } from './errors.ts';
import { type ModelRole, withoutBackendPrefix } from './route.ts';
import type { CompletionRequest, RecordedCompletion } from './types.ts';

export const CASSETTE_FILE = 'llm_cassette.jsonl';

/**
 * One line of a cassette: the answer under the key of the request that got it. The request's
 * messages are not kept (an agent's context grows with every step; storing each would make the
 * cassette grow with the square of a run's length), only a few facts to read it by.
 */
export type CassetteEntry = {
  key: string;
  role: ModelRole;
  model: string;
  backend: string;
  recorded_at: string;
  message_count: number;
  response: RecordedCompletion;
};

/** The vectors of one batch of texts, and the tokens the backend counted for them. */
export type RecordedEmbeddings = { embeddings: number[][]; tokens: number };

/** One line of a cassette for an embedding request: the batch's vectors under the key of its texts. */
export type EmbeddingEntry = { key: string; role: 'embedding'; model: string; backend: string; recorded_at: string; text_count: number; response: RecordedEmbeddings };

/** sha256 of an embedding request (the model and the texts, in order), less what names the run, as requestKey. */
export function embeddingKey(model: string, texts: readonly string[], volatile: VolatileParts = []): string {
  const decisive = { embedding_model: withoutBackendPrefix(model), texts };
  return new Bun.CryptoHasher('sha256').update(withoutVolatile(canonicalJson(decisive), volatile)).digest('hex');
}

/** Run-specific strings, each with the text that stands for it in a request key. */
export type VolatileParts = readonly (readonly [value: string, stand: string])[];

/**
 * sha256 of the parts of a request that decide the answer, as canonical JSON, less what differs
 * between two runs of the same search: the `volatile` strings (the run's checkpoint path, its
 * experiments directory, its run id) and the elapsed seconds a command's result reports. Without
 * this a replay, which runs in a new checkpoint and times its commands anew, would match nothing.
 */
export function requestKey(model: string, req: CompletionRequest, volatile: VolatileParts = []): string {
  // a seed counts only when given, so the keys of requests without one stay those recorded
  const decisive = { model: withoutBackendPrefix(model), messages: req.messages, tools: req.tools ?? null, toolChoice: req.toolChoice ?? null, temperature: req.temperature ?? null, maxOutputTokens: req.maxOutputTokens ?? null, ...(req.seed !== undefined ? { seed: req.seed } : {}) };
  return new Bun.CryptoHasher('sha256').update(withoutVolatile(canonicalJson(decisive), volatile)).digest('hex');
}

/** Elapsed seconds as a tool result reports them, at any depth of JSON-in-JSON escaping. */
const ELAPSED = /(\\*"elapsed_s\\*"\s*:\s*)-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g;

function withoutVolatile(text: string, volatile: VolatileParts): string {
  let out = text.replace(ELAPSED, (_m, name: string) => `${name}0`);
  // longest first, so a path is replaced whole before the run id inside it
  // a short one (a checkpoint called run) could be any word of the text, and is left alone: where the
  // run's name matters it comes inside a longer part (its paths, its root node's id)
  const parts = volatile.filter(([v]) => v.length >= 8).sort((a, b) => b[0].length - a[0].length);
  for (const [value, stand] of parts) out = out.split(value).join(stand);
  return out;
}

/** JSON with object keys sorted at every depth and undefined members left out; bytes (a picture) as their digest. */
export function canonicalJson(value: unknown): string {
  if (value instanceof Uint8Array) return JSON.stringify({ sha256: new Bun.CryptoHasher('sha256').update(value).digest('hex') });
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (isMapping(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The first line of a cassette svc records: the workflow the run was made with, whole, with the
 * files it names (a library, a prompt template: by the names the workflow gives them, beside it),
 * so a replay can run under it without --config, and its digest, so a replay under another one is
 * refused before anything runs (the requests would differ from the first), and the variables
 * outside the workflow that shape the requests as the run set them (`env`), which a replay takes
 * where it does not set them itself. Players skip it: it has no key.
 */
export type CassetteHeader = { svc_cassette: 1; workflow_sha256: string; workflow: string; files?: Record<string, string>; env?: Record<string, string> };

/** A header longer than this is no workflow svc wrote: room for a workflow and a researcher's library. */
const MAX_HEADER_BYTES = 16 * 1024 * 1024;

export const workflowDigest = (text: string): string => new Bun.CryptoHasher('sha256').update(text).digest('hex');

/**
 * Starts a new cassette at `path` with its header; one that already has lines is left as it is.
 * A file that would make the header longer than a replay reads is not carried, smallest first
 * kept; returns the names of those left out.
 */
export function startCassette(path: string, workflowText: string, files: Record<string, string> = {}, env: Record<string, string> = {}): string[] {
  if (existsSync(path) && statSync(path).size > 0) return [];
  const carried: Record<string, string> = {};
  const left: string[] = [];
  // JSON escapes can double a text's bytes: room for that, and for the workflow
  let room = MAX_HEADER_BYTES - 2 * Buffer.byteLength(workflowText) - 1024;
  for (const [name, text] of Object.entries(files).sort((a, b) => a[1].length - b[1].length)) {
    const cost = Buffer.byteLength(JSON.stringify(text)) + Buffer.byteLength(name) + 8;
    if (cost > room) left.push(name);
    else {
      carried[name] = text;
      room -= cost;
    }
  }
  const header: CassetteHeader = { svc_cassette: 1, workflow_sha256: workflowDigest(workflowText), workflow: workflowText, ...(Object.keys(carried).length ? { files: carried } : {}), ...(Object.keys(env).length ? { env } : {}) };
  writeFileAtomic(path, `${JSON.stringify(header)}\n`);
  return left;
}

/** The header of the cassette at `path`, or null for a cassette without one (recorded before headers existed). */
export function readCassetteHeader(path: string): CassetteHeader | null {
  // the header is the first line: a workflow's size, while the cassette may be megabytes of answers
  const head = headOf(path, MAX_HEADER_BYTES);
  if (head === null) throw new NotFoundError(`no cassette to replay at ${path}`, 'give the llm_cassette.jsonl of a recorded run');
  const first = head.toString('utf8').split('\n', 1)[0] ?? '';
  const v = parseLine(first);
  // an entry, or a torn line: no header
  const strings = (m: unknown) => m === undefined || (isMapping(m) && Object.values(m).every((f) => typeof f === 'string'));
  return v && v.svc_cassette === 1 && typeof v.workflow === 'string' && typeof v.workflow_sha256 === 'string' && strings(v.files) && strings(v.env) ? (v as CassetteHeader) : null;
}

/** Refuses to replay a cassette under a workflow other than the one it was recorded with. */
export function checkReplayWorkflow(path: string, workflowText: string): void {
  const header = readCassetteHeader(path);
  if (header === null) return;
  const digest = workflowDigest(workflowText);
  if (digest === header.workflow_sha256) return;
  throw new InputError(
    `the cassette ${path} was recorded with another workflow (sha256 ${header.workflow_sha256.slice(0, 12)}, this run's is ${digest.slice(0, 12)}): its answers would not fit this run's requests`,
    'replay it with the workflow it carries: leave out --config',
  );
}

export function recordExchange(path: string, entry: CassetteEntry | EmbeddingEntry): void {
  try {
    appendFileSync(path, `${JSON.stringify(entry)}\n`);
  } catch (err) {
    throw diskError(err, path);
  }
}

/**
 * Answers from a cassette: for each key, the recorded answers in recorded order, so workers asking
 * the same question get the answers the recorded run got, in the same order.
 */
export class CassettePlayer {
  private answers: Map<string, (RecordedCompletion | RecordedEmbeddings)[]> | null = null;
  private readonly used = new Map<string, number>();

  constructor(readonly path: string) {}

  next(key: string, role: ModelRole, model: string): RecordedCompletion {
    return this.take(key, `${role} request to ${model}`, isCompletion);
  }

  nextEmbeddings(key: string, model: string, count: number): RecordedEmbeddings {
    const answer = this.take(key, `embedding request to ${model} for ${count} text${count === 1 ? '' : 's'}`, isEmbeddings);
    if (answer.embeddings.length !== count) throw new ReplayDivergedError(`the cassette ${this.path} holds ${answer.embeddings.length} vectors for an embedding request of ${count} texts`, 'record the run again');
    return answer;
  }

  private take<T>(key: string, what: string, fits: (a: unknown) => a is T): T {
    const recorded: T[] = [];
    for (const a of this.load().get(key) ?? []) if (fits(a)) recorded.push(a);
    const n = this.used.get(key) ?? 0;
    const answer = recorded[n];
    if (!answer) {
      const why = recorded.length ? `its ${recorded.length} recorded answer${recorded.length > 1 ? 's are' : ' is'} used up` : 'it has no recorded answer';
      throw new ReplayDivergedError(`replay diverged from the recording: the ${what} that the cassette ${this.path} does not hold (${why})`, 'the run asked what the recorded run did not: record it again, or replay the cassette of this run');
    }
    this.used.set(key, n + 1);
    return answer;
  }

  private load(): Map<string, (RecordedCompletion | RecordedEmbeddings)[]> {
    if (this.answers) return this.answers;
    const text = readTextOrNull(this.path);
    if (text === null) {
      throw new NotFoundError(`no cassette to replay at ${this.path}`, 'record a run first (SVC_LLM_RECORD on, the default), or set SVC_REPLAY_CASSETTE to its llm_cassette.jsonl');
    }
    const answers = new Map<string, (RecordedCompletion | RecordedEmbeddings)[]>();
    for (const line of text.split('\n')) {
      const entry = parseEntry(line);
      if (!entry) continue; // a torn last line of a killed run
      const list = answers.get(entry.key) ?? [];
      list.push(entry.response);
      answers.set(entry.key, list);
    }
    this.answers = answers;
    return answers;
  }
}

function isCompletion(r: unknown): r is RecordedCompletion {
  return isMapping(r) && typeof r.text === 'string' && Array.isArray(r.toolCalls) && isMapping(r.usage);
}

function isEmbeddings(r: unknown): r is RecordedEmbeddings {
  return isMapping(r) && typeof r.tokens === 'number' && Array.isArray(r.embeddings) && r.embeddings.every((v) => Array.isArray(v) && v.every((x) => typeof x === 'number'));
}

function parseEntry(line: string): { key: string; response: RecordedCompletion | RecordedEmbeddings } | null {
  const v = parseLine(line);
  if (!v || typeof v.key !== 'string') return null;
  return isCompletion(v.response) || isEmbeddings(v.response) ? { key: v.key, response: v.response } : null;
}
