// A real search started, watched, stopped and resumed through the dashboard: the launched `svc run`
// asks the scripted researcher on a local port, so it writes code, runs it and measures it.
import { afterAll, afterEach, beforeEach, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_EXPERIMENT, DEMO_MODEL } from '../../scripts/record-demo.ts';
import { startModelServer } from '../support/model-server.ts';
import { type OpenAIChatRequest, researcherReply } from '../support/scripted-researcher.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

const server = startModelServer([], { respond: (body) => ({ ...researcherReply(body as OpenAIChatRequest), delayMs: 60 }) });
afterAll(() => server.stop());

let dir: string;
let viz: Viz | undefined;
beforeEach(() => {
  dir = tempDir();
  mkdirSync(join(dir, 'workspace', 'checkpoints'), { recursive: true });
});
afterEach(async () => {
  if (viz) {
    await viz.post('/api/stop');
    await viz.stop();
  }
  viz = undefined;
  removeDir(dir);
});

// the demo's own settings, but live: lineage off, no root choice, no paper search
const WORKFLOW = 'lineage_decision: {mode: "off"}\nroot_idea_selection: {enabled: false}\nretrieval: {backend: scholar_b, endpoint: "http://127.0.0.1:9"}\n';

async function start(): Promise<Viz> {
  Bun.write(join(dir, 'workflow.yaml'), WORKFLOW);
  viz = await startViz([join(dir, 'workspace')], { cwd: dir, env: { SVC_ROOT: dir, LLM_API_BASE: `${server.url}/v1` } });
  return viz;
}

/** /state until `done` says so; every snapshot seen on the way. */
async function watch(v: Viz, done: (s: any) => boolean): Promise<any[]> {
  const seen: any[] = [];
  for (let i = 0; i < 600; i++) {
    const { body } = await v.get('/state');
    seen.push(body);
    if (done(body)) return seen;
    await Bun.sleep(100);
  }
  throw new Error(`the run did not get there: ${JSON.stringify(seen.at(-1))}`);
}

const launchBody = { experiment_md: readFileSync(DEMO_EXPERIMENT, 'utf8'), provider: 'openai-compatible', model: DEMO_MODEL, max_nodes: 4, max_depth: 2, workers: 2 };

test('launched, the run is live in /state, ends with its nodes and exit code 0', async () => {
  const v = await start();
  const { status, body } = await v.post('/api/launch', launchBody);
  expect(status).toBe(200);
  expect(body.ok).toBe(true);
  expect(typeof body.pid).toBe('number');
  const seen = await watch(v, (s) => s.exit_code !== null);
  const live = seen.filter((s) => s.is_running && s.nodes?.total > 0);
  expect(live.length).toBeGreaterThan(0);
  expect(live[0].running_pid).toBe(body.pid);
  const last = seen.at(-1);
  expect(last).toMatchObject({ exit_code: 0, is_running: false, nodes: { total: 4, completed: 4, failed: 0 } });
  const launch = JSON.parse(readFileSync(join(body.checkpoint_path, 'launch_config.json'), 'utf8'));
  expect(launch).toMatchObject({ max_nodes: 4, max_depth: 2, parallel: 2, llm_model: DEMO_MODEL });
  const tree = JSON.parse(readFileSync(join(body.checkpoint_path, 'tree.json'), 'utf8'));
  expect(tree.nodes).toHaveLength(4);
  expect(Math.max(...tree.nodes.map((n: any) => n.depth))).toBeLessThanOrEqual(2);
}, 180_000);

test('stopped through /api/stop, the run ends with its tree saved, and /api/run-stage resumes it to the end', async () => {
  const v = await start();
  const { body } = await v.post('/api/launch', { ...launchBody, max_nodes: 6, max_depth: 5, workers: 1 });
  await watch(v, (s) => s.nodes?.completed >= 1);
  const stop = await v.post('/api/stop');
  expect(stop.status).toBe(200);
  const stopped = (await watch(v, (s) => s.exit_code !== null)).at(-1);
  expect(stopped.exit_code).not.toBe(0);
  const before = JSON.parse(readFileSync(join(body.checkpoint_path, 'tree.json'), 'utf8'));
  expect(before.nodes.length).toBeLessThan(6);

  const resumed = await v.post('/api/run-stage', { stage: 'select_and_run' });
  expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
  const end = (await watch(v, (s) => s.exit_code !== null && s.running_pid === null && s.nodes?.total === 6)).at(-1);
  expect(end).toMatchObject({ exit_code: 0, nodes: { total: 6, failed: 0 } });
  expect(readdirSync(join(dir, 'workspace', 'checkpoints'))).toHaveLength(1);
}, 240_000);
