/**
 * Records the offline demo: runs `svc run examples/demo/experiment.md` against the scripted
 * researcher (test/support/scripted-researcher.ts) with recording on, replays the recorded
 * cassette with no model server to check it holds the whole run, and only then copies it to
 * examples/demo/cassette.jsonl.
 *
 *   npm run build && bun run scripts/record-demo.ts [--keep]
 *
 * --keep leaves the temporary project directories for inspection (they are also kept on failure).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_MA_EMBED_MODEL } from '../src/ideas/ma-settings.ts';
import { startModelServer } from '../test/support/model-server.ts';
import { type OpenAIChatRequest, researcherReply } from '../test/support/scripted-researcher.ts';
import { removeDir, SVC, tempDir } from '../test/support/svc.ts';

const DEMO_DIR = resolve(import.meta.dir, '..', 'examples', 'demo');
export const DEMO_EXPERIMENT = join(DEMO_DIR, 'experiment.md');
export const DEMO_WORKFLOW = join(DEMO_DIR, 'workflow.yaml');
export const DEMO_CASSETTE = join(DEMO_DIR, 'cassette.jsonl');
/** The model id of the recording; examples/demo/workflow.yaml names the same, so a replay asks for it. */
export const DEMO_MODEL = 'scripted-researcher';

export type DemoRun = { code: number; stdout: string; stderr: string; root: string; checkpoint: string | null };

/**
 * `svc run` of the demo in a fresh project directory (SVC_ROOT and HOME point at it, so no
 * settings, .env or checkpoint of the caller's leak in; SVC_CHECKPOINT_DIR is left unset). `env`
 * adds the model settings; `replay` names a cassette to replay instead.
 */
export async function runDemo(opts: { env?: Record<string, string>; replay?: string; echo?: boolean; settings?: Record<string, unknown> }): Promise<DemoRun> {
  const root = tempDir('svc-demo-');
  // what the dashboard's Settings page would have saved for this workspace
  if (opts.settings) {
    mkdirSync(join(root, 'workspace'), { recursive: true });
    writeFileSync(join(root, 'workspace', 'settings.json'), JSON.stringify(opts.settings));
  }
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, NO_COLOR: '1', SVC_ROOT: root, ...opts.env };
  const args = [SVC, 'run', DEMO_EXPERIMENT, '--config', DEMO_WORKFLOW, ...(opts.replay ? ['--replay', opts.replay] : [])];
  const proc = Bun.spawn(args, { cwd: root, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([echoed(proc.stdout, opts.echo ? process.stdout : null), echoed(proc.stderr, opts.echo ? process.stderr : null), proc.exited]);
  return { code, stdout, stderr, root, checkpoint: onlyCheckpoint(root) };
}

/**
 * The demo's ideas come from the multi-agent engine, small enough to read: teams of two, two
 * rounds, four authors. The cassette carries these, so the README's replay needs no flag.
 */
export const DEMO_IDEA_ENGINE = { SVC_IDEA_MA_REAL: '1', SVC_IDEA_MA_K: '2', SVC_IDEA_MA_TEAM_SIZE: '2', SVC_IDEA_MA_N_AUTHORS: '4' };

/**
 * Records the demo against a scripted researcher on a local port; its embeddings come from the
 * scripted embeddings model, served under the engine's default model id.
 */
export async function recordDemo(opts: { env?: Record<string, string>; echo?: boolean } = {}): Promise<DemoRun & { requests: OpenAIChatRequest[] }> {
  const server = startModelServer([], { respond: (body) => researcherReply(body as OpenAIChatRequest), embeddingModels: [DEFAULT_MA_EMBED_MODEL] });
  try {
    const env = { SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: DEMO_MODEL, SVC_LLM_RECORD: 'on', ...DEMO_IDEA_ENGINE, ...opts.env };
    const run = await runDemo({ env, ...(opts.echo ? { echo: true } : {}) });
    return { ...run, requests: server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as OpenAIChatRequest) };
  } finally {
    server.stop();
  }
}

/** The one checkpoint a run made under `<root>/workspace/checkpoints`, null when there is none. */
export function onlyCheckpoint(root: string): string | null {
  const dir = join(root, 'workspace', 'checkpoints');
  // a hidden directory is a checkpoint still being made (.new-*), or the index: not a run
  const runs = existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('.')) : [];
  return runs.length === 1 && runs[0] ? join(dir, runs[0].name) : null;
}

type TreeNode = { id: string; depth: number; status: string; label: string; metrics: Record<string, unknown> };

export function treeNodes(checkpoint: string): TreeNode[] {
  const tree = JSON.parse(readFileSync(join(checkpoint, 'tree.json'), 'utf8')) as { nodes?: TreeNode[] };
  return tree.nodes ?? [];
}

/** A node's comparisons: the flat metric, else the one in its measurements. */
export function comparisonsOf(node: TreeNode): number | null {
  const measured = node.metrics._measurements_dict as Record<string, unknown> | undefined;
  const v = node.metrics.comparisons ?? measured?.comparisons;
  return typeof v === 'number' ? v : null;
}

/**
 * What a run found, without its ids and times (the root id holds the run id, so every id differs
 * between a recording and its replay): each node's depth, label, status and comparisons, sorted.
 */
export function outcomeOf(checkpoint: string): string[] {
  return treeNodes(checkpoint)
    .map((n) => `depth ${n.depth} ${n.label} ${n.status} comparisons ${comparisonsOf(n) ?? '-'} score ${n.metrics._scientific_score ?? '-'}`)
    .sort();
}

async function echoed(stream: ReadableStream<Uint8Array>, to: NodeJS.WriteStream | null): Promise<string> {
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    const s = decoder.decode(chunk, { stream: true });
    text += s;
    to?.write(s);
  }
  return text;
}

function fail(msg: string, keep: string[]): never {
  console.error(`record-demo: ${msg}`);
  if (keep.length) console.error(`record-demo: kept for inspection: ${keep.join(', ')}`);
  process.exit(1);
}

async function main(): Promise<void> {
  const keep = process.argv.includes('--keep');
  if (!existsSync(SVC)) fail(`${SVC} is missing: run npm run build first`, []);
  console.log('record-demo: recording against the scripted researcher');
  const recorded = await recordDemo({ echo: true });
  if (recorded.code !== 0 || !recorded.checkpoint) fail(`svc run exited ${recorded.code}${recorded.checkpoint ? '' : ' without one checkpoint'}`, [recorded.root]);
  const cassette = join(recorded.checkpoint, 'llm_cassette.jsonl');
  if (!existsSync(cassette)) fail(`the run recorded no ${cassette}`, [recorded.root]);
  console.log('record-demo: replaying the recording with no model server');
  const replayed = await runDemo({ replay: cassette, echo: true });
  if (replayed.code !== 0 || !replayed.checkpoint) fail(`the replay exited ${replayed.code}`, [recorded.root, replayed.root]);
  const [want, got] = [outcomeOf(recorded.checkpoint), outcomeOf(replayed.checkpoint)];
  if (JSON.stringify(want) !== JSON.stringify(got)) fail(`the replay found other nodes:\nrecorded:\n  ${want.join('\n  ')}\nreplayed:\n  ${got.join('\n  ')}`, [recorded.root, replayed.root]);
  copyFileSync(cassette, DEMO_CASSETTE);
  const lines = readFileSync(DEMO_CASSETTE, 'utf8').trim().split('\n').length;
  console.log(`record-demo: ${want.length} nodes, ${lines} model answers, written to ${DEMO_CASSETTE}\n  ${want.join('\n  ')}`);
  if (keep) console.log(`record-demo: kept ${recorded.root} and ${replayed.root}`);
  else for (const dir of [recorded.root, replayed.root]) removeDir(dir);
}

if (import.meta.main) await main();
