// The dashboard's view of a run, however it was started: a run started in a terminal writes the
// log the dashboard follows, and right after a stop the list and /state give the same status.
import { afterAll, afterEach, beforeEach, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { DEMO_EXPERIMENT, DEMO_MODEL } from '../../scripts/record-demo.ts';
import { startModelServer } from '../support/model-server.ts';
import { type OpenAIChatRequest, researcherReply } from '../support/scripted-researcher.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, SVC, svc, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

const server = startModelServer([], { respond: (body) => ({ ...researcherReply(body as OpenAIChatRequest), delayMs: 60 }) });
afterAll(() => server.stop());

let dir: string;
let root: string;
let viz: Viz | undefined;
let run: Subprocess | undefined;
beforeEach(() => {
  dir = tempDir();
  root = join(dir, 'workspace', 'checkpoints');
  mkdirSync(root, { recursive: true });
  Bun.write(join(dir, 'workflow.yaml'), WORKFLOW);
});
afterEach(async () => {
  run?.kill('SIGKILL');
  await run?.exited;
  run = undefined;
  if (viz) {
    await viz.post('/api/stop');
    await viz.stop();
  }
  viz = undefined;
  removeDir(dir);
});

// the demo's settings, live: lineage off, no root choice, no paper search
const WORKFLOW = 'lineage_decision: {mode: "off"}\nroot_idea_selection: {enabled: false}\nretrieval: {backend: scholar_b, endpoint: "http://127.0.0.1:9"}\n';
const env = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, NO_COLOR: '1', SVC_ROOT: dir, LLM_API_BASE: `${server.url}/v1` });

async function until<T>(what: string, get: () => Promise<T | null | undefined | false>): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const v = await get();
    if (v) return v;
    await Bun.sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const runLogs = (ckpt: string) => readdirSync(ckpt).filter((n) => /^svc_run_\d+\.log$/.test(n));

test('a run started in a terminal writes the log the dashboard follows: live lines, no end while it runs', async () => {
  viz = await startViz([join(dir, 'workspace')], { cwd: dir, env: { SVC_ROOT: dir } });
  run = Bun.spawn([SVC, 'run', DEMO_EXPERIMENT], {
    cwd: dir,
    env: { ...env(), SVC_BACKEND: 'openai-compatible', SVC_MODEL: DEMO_MODEL, SVC_MAX_NODES: '6', SVC_PARALLEL: '1' },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const terminal = new Response(run.stderr as ReadableStream).text();
  const id = await until('the checkpoint', async () => readdirSync(root).find((n) => /^\d{8,14}_/.test(n)));
  const ckpt = join(root, id);
  expect((await viz.post('/api/switch-checkpoint', { id })).status).toBe(200);

  // followed as the browser does, while the run is still going: until a node has run
  const stream = await viz.req('/api/logs', { headers: { accept: 'text/event-stream' } });
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('svc: bfts: ')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  expect(text).toContain(`svc: run ${ckpt}`);
  expect(text).toContain('svc: bfts: ');
  expect(text).not.toContain('[end of log]');
  expect((await viz.get('/state')).body.is_running).toBe(true);

  // stopped at its terminal (Ctrl-C): the rest of its output, then the end
  run.kill('SIGINT');
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await run.exited;
  expect(text).toContain('SIGINT: stopping');
  expect(text).toContain('event: done');
  expect(text).toContain('[end of log]');
  expect(runLogs(ckpt)).toHaveLength(1);
  const log = readFileSync(join(ckpt, runLogs(ckpt)[0] as string), 'utf8');
  // what the terminal showed from the checkpoint's creation on is all in the log
  const shown = (await terminal).split('\n');
  const said = shown.slice(shown.indexOf(`svc: run ${ckpt}`)).filter((l) => l.startsWith('svc: '));
  expect(said.length).toBeGreaterThan(5);
  for (const line of said) expect(log).toContain(line);
}, 180_000);

test('right after a stop, the checkpoint list and /state give the same status, stopped; the launched run kept one log', async () => {
  viz = await startViz([join(dir, 'workspace')], { cwd: dir, env: { SVC_ROOT: dir, LLM_API_BASE: `${server.url}/v1` } });
  const launched = await viz.post('/api/launch', { experiment_md: readFileSync(DEMO_EXPERIMENT, 'utf8'), provider: 'openai-compatible', model: DEMO_MODEL, max_nodes: 8, max_depth: 5, workers: 1 });
  expect(launched.status).toBe(200);
  const id = (launched.body.checkpoint_path as string).split('/').pop();
  // the list is read while the run runs, so that it holds an entry made then
  await until('a node done', async () => (await viz?.get('/state'))?.body.nodes?.completed >= 1);
  expect((await viz.get('/api/checkpoints')).body.find((c: { id: string }) => c.id === id).status).toBe('running');
  expect((await viz.post('/api/stop')).status).toBe(200);
  const [state, list] = await Promise.all([viz.get('/state'), viz.get('/api/checkpoints')]);
  const row = list.body.find((c: { id: string }) => c.id === id);
  expect(state.body.is_running).toBe(false);
  expect(state.body.status).toBe('stopped');
  expect(row.status).toBe(state.body.status);
  expect(state.body.status_label.startsWith('stopped')).toBe(true);
  // its output went to the log the dashboard made for it, once
  const ckpt = launched.body.checkpoint_path as string;
  expect(runLogs(ckpt)).toHaveLength(1);
  const lines = readFileSync(join(ckpt, runLogs(ckpt)[0] as string), 'utf8').split('\n');
  expect(lines.filter((l) => l === `svc: run ${ckpt}`)).toHaveLength(1);
  expect(lines.filter((l) => l.startsWith('svc: SIGTERM: stopping'))).toHaveLength(1);
}, 180_000);

test('svc paper started in a terminal writes its lines to a run log of the checkpoint too', async () => {
  const ckpt = writeCheckpoint(root, { nodes: 3 });
  const paper = await svc(['paper', ckpt, '--stage', 'transform_data'], { cwd: dir, env: { SVC_ROOT: dir, LLM_API_BASE: `${server.url}/v1`, SVC_BACKEND: 'openai-compatible', SVC_MODEL: DEMO_MODEL } });
  expect(paper.stderr).toContain('transform_data: ');
  expect(runLogs(ckpt)).toHaveLength(1);
  const log = readFileSync(join(ckpt, runLogs(ckpt)[0] as string), 'utf8');
  for (const line of paper.stderr.split('\n').filter((l) => l.startsWith('transform_data: '))) expect(log).toContain(line);
}, 120_000);
