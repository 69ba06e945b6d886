import { afterEach, beforeEach, describe, expect, spyOn, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';
import { isRunning } from '../unit/skills/coding/tool-call.ts';

let dir: string;
let pool: SkillPool;

function makePool(opts: { disabledTools?: string[] } = {}): SkillPool {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_WORK_DIR: dir, SVC_CHECKPOINT_DIR: join(dir, 'ckpt') };
  return new SkillPool({ skills: listSkills(bundledWorkflow(), dir), env, program: SVC, ...opts });
}

beforeEach(() => {
  dir = tempDir();
  pool = makePool();
});
afterEach(async () => {
  await pool.close();
  removeDir(dir);
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the run tool client', () => {
  test('starts no skill process until a tool of that skill is called', async () => {
    expect((await pool.tools()).length).toBeGreaterThan(5);
    expect(await pool.running()).toEqual({});
    expect(await pool.call('run_bash', { command: 'echo $SVC_WORK_DIR' })).toEqual({ result: expect.objectContaining({ stdout: `${dir}\n`, exit_code: 0 }) });
    expect(Object.keys(await pool.running())).toEqual(['coding-skill']);
  });

  test('filters tools by phase', async () => {
    const bfts = new Set((await pool.tools('bfts')).map((t) => t.name));
    const reproduce = new Set((await pool.tools('reproduce')).map((t) => t.name));
    expect(bfts.has('run_bash') && bfts.has('statistical_test') && bfts.has('make_metric_spec')).toBe(true);
    expect(reproduce.has('run_bash')).toBe(true);
    // benchmark-skill and evaluator-skill serve the search only
    expect(reproduce.has('statistical_test') || reproduce.has('make_metric_spec')).toBe(false);
    expect((await pool.tools('paper')).filter((t) => ['coding-skill', 'benchmark-skill', 'evaluator-skill'].includes(t.skill))).toEqual([]);
  });

  test('a tool the workflow switched off is hidden and refused', async () => {
    await pool.close();
    pool = makePool({ disabledTools: ['coding-skill:run_bash', 'plot'] });
    const names = (await pool.tools('bfts')).map((t) => t.name);
    expect(names).not.toContain('run_bash');
    expect(names).not.toContain('plot');
    expect(names).toContain('run_code');
    expect(await pool.call('run_bash', { command: 'touch should-not-exist' })).toEqual({ error: "tool 'run_bash' of coding-skill is disabled in this workflow" });
    expect(await pool.call('nope')).toEqual({ error: "unknown tool 'nope'" });
  });

  test('bad arguments come back as {error} naming the argument', async () => {
    expect(await pool.call('read_file', {})).toEqual({ error: "read_file: missing argument 'path'" });
    expect(await pool.call('statistical_test', { data_a: [1, 2, 3], data_b: [4, 5, 6], test: 'anova' })).toEqual({ error: expect.stringMatching(/^statistical_test: argument 'test' /) });
  });

  test('a call past its timeout is reported, its processes are stopped, and the skill keeps serving', async () => {
    const marker = join(dir, 'child.pid');
    const slow = await pool.call('run_bash', { command: `sleep 60 & echo $! > ${marker}; wait`, timeout: 120 }, { timeoutS: 1 });
    expect(slow).toEqual({ error: 'run_bash timed out after 1 s' });
    const child = Number(await Bun.file(marker).text());
    for (let i = 0; i < 100 && alive(child); i++) await Bun.sleep(50);
    expect(alive(child)).toBe(false);
    expect(await pool.call('run_bash', { command: 'echo ok' })).toEqual({ result: expect.objectContaining({ stdout: 'ok\n' }) });
  });

  test('a wait longer than a timer can hold is capped: the call is answered, not timed out at once', async () => {
    expect(await pool.call('run_bash', { command: 'echo hi', timeout: 1e9 })).toEqual({ error: "run_bash: argument 'timeout' expected number to be less or equal to 7200, got number 1000000000" });
    expect(await pool.call('run_bash', { command: 'echo hi' }, { timeoutS: 1e10 })).toEqual({ result: expect.objectContaining({ stdout: 'hi\n' }) });
  });

  test('a skill process that dies mid-call is reported and restarted once', async () => {
    await pool.call('run_bash', { command: 'true' });
    const first = (await pool.running())['coding-skill'];
    expect(typeof first).toBe('number');
    const call = pool.call('run_bash', { command: 'sleep 5' });
    await Bun.sleep(300);
    process.kill(first as number, 'SIGKILL');
    const crashed = await call;
    expect(crashed).toEqual({ error: expect.stringMatching(/^coding-skill stopped while running run_bash: .*; it was restarted$/) });
    const second = (await pool.running())['coding-skill'];
    expect(second).not.toBe(first);
    expect(await pool.call('run_bash', { command: 'echo back' })).toEqual({ result: expect.objectContaining({ stdout: 'back\n' }) });
  });

  test('an external skill that cannot start is an {error}, not a hang', async () => {
    await pool.close();
    const broken = join(dir, 'broken.sh');
    writeFileSync(broken, '#!/bin/sh\nexit 3\n', { mode: 0o755 });
    pool = new SkillPool({ skills: [{ name: 'broken-skill', phases: ['bfts'], path: broken, builtin: false, found: true, enabled: true }], env: { PATH: '/usr/bin:/bin' } });
    expect(await pool.tools()).toEqual([]);
    expect(await pool.call('anything')).toEqual({ error: expect.stringMatching(/^unknown tool 'anything'; broken-skill offers no tools: cannot start broken-skill: .*broken\.sh\)$/) });
  });

  test('an external skill directory without src/server.py: a call says why the skill offers nothing', async () => {
    await pool.close();
    const empty = join(dir, 'empty-skill');
    mkdirSync(empty);
    pool = new SkillPool({ skills: [{ name: 'empty-skill', phases: ['bfts'], path: empty, builtin: false, found: true, enabled: true }], env: { PATH: '/usr/bin:/bin' } });
    expect(await pool.call('anything')).toEqual({ error: `unknown tool 'anything'; empty-skill offers no tools: skill empty-skill: nothing to run at ${empty} (give a directory with src/server.py or an executable MCP server)` });
    expect(await pool.running()).toEqual({});
  });

  test('an external server that prints to stdout still serves, and the lines it loses are noted on stderr', async () => {
    await pool.close();
    const chatty = join(dir, 'chatty.sh');
    writeFileSync(chatty, `#!/bin/sh\necho "starting up"\nexec ${SVC} skill serve coding-skill\n`, { mode: 0o755 });
    const logged = spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      pool = new SkillPool({ skills: [{ name: 'chatty-skill', phases: ['bfts'], path: chatty, builtin: false, found: true, enabled: true }], env: { PATH: process.env.PATH ?? '/usr/bin:/bin', SVC_WORK_DIR: dir } });
      expect(await pool.call('run_bash', { command: 'echo fine' })).toEqual({ result: expect.objectContaining({ stdout: 'fine\n' }) });
      expect(logged.mock.calls.map((c) => String(c[0]))).toContainEqual(expect.stringMatching(/^chatty-skill: ignored a line that is not JSON \(/));
    } finally {
      logged.mockRestore();
    }
  });

  test('calls that see their server die together start one new server; none is left behind', async () => {
    await pool.call('run_bash', { command: 'true' });
    const first = (await pool.running())['coding-skill'] as number;
    const calls = [1, 2, 3].map(() => pool.call('run_bash', { command: 'sleep 5' }));
    await Bun.sleep(300);
    process.kill(first, 'SIGKILL');
    for (const outcome of await Promise.all(calls)) expect(outcome).toEqual({ error: expect.stringMatching(/^coding-skill stopped while running run_bash: .*; it was restarted$/) });
    const second = (await pool.running())['coding-skill'];
    expect(await settledServers(1)).toEqual([second as number]);
    await pool.close();
    expect(await settledServers(0)).toEqual([]);
  });

  test('closing the client while calls run cancels them and starts no server again', async () => {
    const calls = [pool.call('run_bash', { command: 'sleep 30' }), pool.call('run_bash', { command: 'sleep 30' })];
    await settledServers(1);
    await pool.close();
    expect(await Promise.all(calls)).toEqual([{ error: 'run_bash was cancelled: the tool client was closed' }, { error: 'run_bash was cancelled: the tool client was closed' }]);
    expect(await settledServers(0)).toEqual([]);
    expect(await pool.call('run_bash', { command: 'true' })).toEqual({ error: 'the tool client is closed' });
    expect(await settledServers(0)).toEqual([]);
  });
});

/** Live coding-skill servers this test process started. */
function codingServers(): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((pid) => isRunning(pid) && parentOf(pid) === process.pid && commandOf(pid).includes('skill\0serve\0coding-skill'));
}

/** The live coding-skill servers once there are `count` of them, or after 5 s. */
async function settledServers(count: number): Promise<number[]> {
  for (let i = 0; i < 100 && codingServers().length !== count; i++) await Bun.sleep(50);
  return codingServers();
}

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}
