import { afterEach, beforeEach, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChildRun } from '../../../src/run/wiring.ts';
import { searchContext } from '../../support/search-run.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { environOf, standInProgram } from './helpers.ts';

let dir: string;
const pids: number[] = [];
beforeEach(() => {
  dir = tempDir('svc-lineage-child-');
});
afterEach(() => {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  removeDir(dir);
});

// a run without a memory daemon serves memory itself, for as long as it runs; its child runs
// outlive it, so they must find memory as the run itself was told to, not at the run's own server
test("a lineage child gets the environment the run was started with, not the run's own memory server", async () => {
  const own = 'http://127.0.0.1:45001';
  const { ctx, logs } = searchContext(dir, 'http://127.0.0.1:9', { memoryUrl: own });
  writeFileSync(join(ctx.checkpointDir, 'idea.json'), JSON.stringify({ ideas: [{ title: 'a' }, { title: 'b' }] }));
  const launcherEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(dir, 'home'), MEMBACKEND_BASE_URL: 'http://localhost:8283', PROVIDERA_API_KEY: 'k' };
  await startChildRun(ctx, { action: 'switch_to_idea', target_idea_index: 1, disable_generate_ideas: true, rationale: 'r' }, { env: launcherEnv, program: standInProgram(dir) });
  const pid = Number(/\(pid (\d+)\)/.exec(logs.join('\n'))?.[1]);
  pids.push(pid);
  const env = await environOf(pid);
  expect(env.MEMBACKEND_BASE_URL).toBe('http://localhost:8283');
  expect(env.PROVIDERA_API_KEY).toBe('k');
  expect(env.SVC_CHECKPOINT_DIR).not.toBe(ctx.checkpointDir);
});
