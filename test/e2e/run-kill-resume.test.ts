import { afterAll, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_EXPERIMENT, DEMO_MODEL, DEMO_WORKFLOW, onlyCheckpoint, treeNodes } from '../../scripts/record-demo.ts';
import { startModelServer } from '../support/model-server.ts';
import { type OpenAIChatRequest, researcherReply } from '../support/scripted-researcher.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

// A run killed with SIGKILL at random moments, resumed each time, ends with as many nodes as a run
// that was never killed, and leaves no file it cannot read.

// each answer a little late, so a run lasts long enough to be cut at random moments
const server = startModelServer([], { respond: (body) => ({ ...researcherReply(body as OpenAIChatRequest), delayMs: 40 }) });
const root = tempDir('svc-kill-');
afterAll(() => {
  server.stop();
  removeDir(root);
});

const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: root,
  NO_COLOR: '1',
  SVC_ROOT: root,
  SVC_BACKEND: 'openai-compatible',
  LLM_API_BASE: `${server.url}/v1`,
  SVC_MODEL: DEMO_MODEL,
  // a bigger tree than the demo's, so there is more to cut
  SVC_MAX_NODES: '12',
};

function start(args: string[]) {
  return Bun.spawn([SVC, ...args], { cwd: root, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
}

/** Every JSON and JSON-lines file below a directory parses (a torn line would not). */
function unreadableFiles(dir: string): string[] {
  const bad: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (!/\.(json|jsonl)$/.test(entry.name) || statSync(path).size === 0) continue;
    const text = readFileSync(path, 'utf8');
    try {
      if (entry.name.endsWith('.jsonl')) for (const line of text.split('\n').filter(Boolean)) JSON.parse(line);
      else JSON.parse(text);
    } catch {
      bad.push(path);
    }
  }
  return bad;
}

test('killed with SIGKILL at random moments and resumed, the run reaches its full node count', async () => {
  // killed once the search has begun (the checkpoint and its tree exist), at a random moment of it
  const first = start(['run', DEMO_EXPERIMENT, '--config', DEMO_WORKFLOW]);
  let dir = '';
  for (let i = 0; i < 600 && !dir; i++) {
    await Bun.sleep(20);
    const ck = onlyCheckpoint(root);
    if (ck && existsSync(join(ck, 'tree.json'))) dir = ck;
  }
  expect(dir).not.toBe('');
  await Bun.sleep(Math.random() * 800);
  first.kill('SIGKILL');
  await first.exited;

  const kills: number[] = [];
  for (let i = 0; i < 8; i++) {
    const resumed = start(['resume', dir]);
    // short enough that a run of 12 nodes is cut several times before it can finish
    const at = 100 + Math.random() * 500;
    const ended = await Promise.race([resumed.exited, Bun.sleep(at).then(() => null)]);
    if (ended !== null) {
      // it finished before the kill
      expect(ended, await new Response(resumed.stderr).text()).toBe(0);
      break;
    }
    resumed.kill('SIGKILL');
    await resumed.exited;
    kills.push(Math.round(at));
    expect(unreadableFiles(dir)).toEqual([]);
  }

  // most rounds must have cut a run short, or this tests nothing
  expect(kills.length).toBeGreaterThanOrEqual(3);
  const last = start(['resume', dir]);
  const [code, stderr] = await Promise.all([last.exited, new Response(last.stderr).text()]);
  expect(code, `kills at ${kills.join(', ')} ms\n${stderr}`).toBe(0);
  const nodes = treeNodes(dir);
  expect(nodes.length).toBe(12);
  expect(nodes.filter((n) => n.status !== 'success' && n.status !== 'failed')).toEqual([]);
  expect(new Set(nodes.map((n) => n.id)).size).toBe(nodes.length);
  expect(unreadableFiles(dir)).toEqual([]);
  expect(unreadableFiles(join(root, 'workspace', 'experiments'))).toEqual([]);
}, 600_000);

test('a replay killed with SIGKILL at any moment, even before its first record, resumes from the same cassette to the end', async () => {
  const cassette = join(import.meta.dir, '../../examples/demo/cassette.jsonl');
  const replayEnv = { PATH: env.PATH, HOME: root, NO_COLOR: '1', SVC_BACKEND: 'replay', SVC_REPLAY_CASSETTE: cassette };
  const outcomes: string[] = [];
  // from just after the start (the checkpoint being made) to well into the search, on a busy machine too
  for (const at of [5, 30, 60, 120, 250, 400, 700, 1200]) {
    const project = join(root, `replay-${at}`);
    const run = Bun.spawn([SVC, 'run', DEMO_EXPERIMENT, '--replay', cassette], { cwd: root, env: { ...replayEnv, SVC_ROOT: project }, stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' });
    await Bun.sleep(at);
    run.kill('SIGKILL');
    await run.exited;
    const dir = onlyCheckpoint(project);
    const checkpoints = join(project, 'workspace', 'checkpoints');
    // a directory that is there is a checkpoint whole; a kill before it leaves only a hidden one being made
    if (dir === null) {
      const left = existsSync(checkpoints) ? readdirSync(checkpoints) : [];
      expect(left.filter((n) => !n.startsWith('.new-'))).toEqual([]);
      outcomes.push(`${at}: none yet`);
      continue;
    }
    const resumed = Bun.spawn([SVC, 'resume', dir], { cwd: root, env: { ...replayEnv, SVC_ROOT: project }, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
    const [code, stderr] = await Promise.all([resumed.exited, new Response(resumed.stderr).text()]);
    expect(code, `killed at ${at} ms\n${stderr}`).toBe(0);
    expect(treeNodes(dir).filter((n) => n.status === 'success')).toHaveLength(5);
    outcomes.push(`${at}: resumed`);
  }
  // most of the kills found a checkpoint to resume, or this tests little
  expect(outcomes.filter((o) => o.endsWith('resumed')).length, outcomes.join('; ')).toBeGreaterThanOrEqual(3);
}, 300_000);
