// The dashboard's /state and /api/stop over a run it started, in process with the real app: the
// run is a stand-in program (svc run needs a model), started through the same launch function.
import { afterEach, beforeEach, expect, test } from 'bun:test';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchRun } from '../../../src/run/launch.ts';
import { createApp } from '../../../src/server/app.ts';
import { ServerContext } from '../../../src/server/context.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { alive, killAll, until } from './helpers.ts';

let dir: string;
let ctx: ServerContext;
beforeEach(() => {
  dir = tempDir();
  ctx = new ServerContext({ PATH: process.env.PATH ?? '', HOME: dir }, dir, join(dir, 'workspace', 'checkpoints'), null);
});
afterEach(async () => {
  await killAll(ctx.runs);
  removeDir(dir);
});

/** A run that records its PID, writes its tree in two steps, then works until stopped (with a child of its own). */
function treeWriter(): string[] {
  const script = join(dir, 'tree-writer.sh');
  const tree = (statuses: string[]) => JSON.stringify({ run_id: 'r', nodes: statuses.map((status, i) => ({ id: `n${i}`, parent_id: i ? 'n0' : null, depth: i ? 1 : 0, status })) });
  writeFileSync(
    script,
    `#!/bin/sh
echo $$ > "$SVC_CHECKPOINT_DIR/.svc_pid"
printf '%s' '${tree(['running'])}' > "$SVC_CHECKPOINT_DIR/t.tmp" && mv "$SVC_CHECKPOINT_DIR/t.tmp" "$SVC_CHECKPOINT_DIR/tree.json"
while [ ! -e "$SVC_CHECKPOINT_DIR/go" ]; do sleep 0.05; done
printf '%s' '${tree(['success', 'success', 'failed', 'running'])}' > "$SVC_CHECKPOINT_DIR/t.tmp" && mv "$SVC_CHECKPOINT_DIR/t.tmp" "$SVC_CHECKPOINT_DIR/tree.json"
sleep 30 &
echo $! > "${join(dir, 'sleeper.pid')}"
wait
`,
  );
  chmodSync(script, 0o755);
  return ['/bin/sh', script];
}

async function get(app: ReturnType<typeof createApp>, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const res = await app.handle(new Request(`http://127.0.0.1${path}`, init));
  return { status: res.status, body: await res.json() };
}

/** /state is computed once per turn of the event loop; a new turn sees new files. */
async function state(app: ReturnType<typeof createApp>) {
  await new Promise((r) => setImmediate(r));
  return (await get(app, '/state')).body;
}

test('/state follows the run the dashboard started: running, its node counts, then its exit code; stop ends its whole group', async () => {
  const app = createApp(ctx);
  const r = await launchRun({ checkpointsRoot: ctx.checkpointsRoot, env: ctx.processEnv, cwd: dir, supervisor: ctx.runs, program: treeWriter(), body: { experiment_md: 'goal' } });
  ctx.setActive(r.checkpoint_path);

  const first = await state(app);
  expect(first).toMatchObject({ is_running: true, running: true, pid: r.pid, running_pid: r.pid, exit_code: null, status: 'running' });

  await until(() => existsSync(join(r.checkpoint_path, 'tree.json')));
  writeFileSync(join(r.checkpoint_path, 'go'), '');
  await until(() => existsSync(join(dir, 'sleeper.pid')));
  let live = await state(app);
  for (let i = 0; i < 100 && live.nodes?.total !== 4; i++) live = await state(app);
  expect(live).toMatchObject({ is_running: true, pid: r.pid, nodes: { total: 4, completed: 2, failed: 1, running: 1 } });

  const sleeper = Number(readFileSync(join(dir, 'sleeper.pid'), 'utf8'));
  const stopped = await get(app, '/api/stop', {});
  expect(stopped.status).toBe(200);
  expect(stopped.body).toMatchObject({ ok: true, pid: r.pid, signal: 'SIGTERM', exit_code: 143, checkpoint_path: r.checkpoint_path });
  expect(alive(r.pid)).toBe(false);
  expect(alive(sleeper)).toBe(false);

  const after = await state(app);
  expect(after).toMatchObject({ is_running: false, pid: null, exit_code: 143 });
  expect(after.status_label).toContain('exit code 143');

  // nothing of ours runs now: a second stop says so
  const again = await get(app, '/api/stop', {});
  expect(again.status).toBe(409);
  expect(again.body.error).toContain('already ended');
});

test('a launch while the dashboard run is going is refused with 409', async () => {
  const app = createApp(ctx);
  await launchRun({ checkpointsRoot: ctx.checkpointsRoot, env: ctx.processEnv, cwd: dir, supervisor: ctx.runs, program: treeWriter(), body: { experiment_md: 'goal' } });
  const second = await get(app, '/api/launch', { experiment_md: 'another goal' });
  expect(second.status).toBe(409);
  expect(second.body.error).toContain('still running');
});

test('two launches at once: one starts, the other is refused with 409', async () => {
  const app = createApp(ctx);
  const [a, b] = await Promise.all([get(app, '/api/launch', { experiment_md: 'goal one' }), get(app, '/api/launch', { experiment_md: 'goal two' })]);
  expect([a.status, b.status].sort()).toEqual([200, 409]);
  expect((a.status === 409 ? a : b).body.error).toContain('being started');
});
