// run_reproduce on the local sandbox, called through the paper-re skill's server as the pipeline
// calls it, against running the same reproduce.sh directly (`bash reproduce.sh > reproduce.log`
// in its directory); the two alternate within a round, measured in the same run. Target: at most
// 50 ms more than the direct run. What the tool adds: the call, the checks of its paths, the
// apply_patch commands written, the process group, and ors_phase1.json written.
import { mkdirSync, openSync, closeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';
import { median, report } from './measure.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const dir = tempDir('svc-bench-reproduce-');
const ckpt = join(dir, 'checkpoints', 'run');
const repo = join(ckpt, 'repro_sandbox');
mkdirSync(repo, { recursive: true });
// a small reproduction: it prints 2,000 lines, as a sort program reporting its comparisons would
writeFileSync(join(repo, 'reproduce.sh'), '#!/bin/bash\nfor i in $(seq 1 2000); do echo "comparisons $i"; done\n');
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_CHECKPOINT_DIR: ckpt };

async function direct(): Promise<number> {
  const t0 = performance.now();
  const fd = openSync(join(repo, 'reproduce.log'), 'w');
  const proc = Bun.spawn(['bash', 'reproduce.sh'], { cwd: repo, env, stdin: 'ignore', stdout: fd, stderr: fd });
  closeSync(fd);
  if ((await proc.exited) !== 0) throw new Error('reproduce.sh failed');
  return performance.now() - t0;
}

const pool = new SkillPool({ skills: listSkills(bundledWorkflow(), dir), env, program: SVC });
async function tool(): Promise<number> {
  const t0 = performance.now();
  const out = await pool.call('run_reproduce', { repo_dir: repo, sandbox_kind: 'local' }, { skill: 'paper-re-skill' });
  const ms = performance.now() - t0;
  if ('error' in out) throw new Error(out.error);
  if ((out.result as { exit_code?: number }).exit_code !== 0) throw new Error('run_reproduce: reproduce.sh failed');
  return ms;
}

// start the skill server and warm the page cache
await direct();
await tool();
const directs: number[] = [];
const tools: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  if (i % 2 === 0) {
    directs.push(await direct());
    tools.push(await tool());
  } else {
    tools.push(await tool());
    directs.push(await direct());
  }
}
await pool.close();
removeDir(dir);
const base = median(directs);
console.log(`${ROUNDS} runs each, median`);
report('bash reproduce.sh > reproduce.log (baseline)', base, base);
report('run_reproduce, local sandbox, via the server', median(tools), base, Number((base + 50).toFixed(1)));
console.log(`run_reproduce - direct: ${(median(tools) - base).toFixed(1)} ms median (target at most 50 ms)`);
