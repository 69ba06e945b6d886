// A node's commands in the run's container: coding-skill's run_bash and run_code through the real
// skill server (dist/svc skill serve), told by the call how the node runs, on a real docker and a
// real podman with the busybox test image: the work dir mounted at its own path and nothing else of
// this machine, no network unless the workflow allows it, exit codes through, and a timed-out
// command's container gone with it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import type { NodeExec } from '../../src/sandbox/node-command.ts';
import { ensureRuntime, type TestRuntime } from '../support/container.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

for (const name of ['docker', 'podman'] as const) {
  const runtime = await ensureRuntime(name);
  if ('reason' in runtime) console.error(`real ${name} container tests skipped: ${runtime.reason}`);
  describeRuntime(name, 'reason' in runtime ? null : runtime);
}

function describeRuntime(name: string, real: TestRuntime | null): void {
  describe.skipIf(real === null)(`a node's commands in its ${name} container`, () => {
    let dir: string;
    let work: string;
    let pool: SkillPool;
    let exec: NodeExec;
    beforeAll(() => {
      dir = tempDir();
      work = join(dir, 'experiments', 'node_1');
      mkdirSync(work, { recursive: true });
      writeFileSync(join(dir, 'outside.txt'), 'not for the container');
      exec = { container: { runtime: real!.runtime, binary: real!.binary, image: real!.image, pull: 'never' } };
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_WORK_DIR: dir, SVC_CHECKPOINT_DIR: join(dir, 'ckpt') };
      pool = new SkillPool({ skills: listSkills(bundledWorkflow(), dir), env, program: SVC });
    });
    afterAll(async () => {
      await pool.close();
      removeDir(dir);
    });
    const bash = (command: string, timeout?: number) => pool.call('run_bash', { command, work_dir: work, ...(timeout ? { timeout } : {}) }, { nodeId: 'node_1', exec });

    test('the work dir is there at its own path, and nothing else of this machine; no network', async () => {
      const r = (await bash(`pwd; echo made > made.txt; test -e ${join(dir, 'outside.txt')} && echo visible || echo hidden; ls /sys/class/net`)) as { result: { stdout: string; exit_code: number } };
      expect(r.result.exit_code).toBe(0);
      expect(r.result.stdout).toBe(`${work}\nhidden\nlo\n`);
      expect(readFileSync(join(work, 'made.txt'), 'utf8')).toBe('made\n');
    });

    test('the network only when the workflow allows it (container.network)', async () => {
      const nets = async (network: boolean) => {
        const withNet = { container: { ...exec.container!, ...(network ? { network } : {}) } };
        const r = (await pool.call('run_bash', { command: 'ls /sys/class/net', work_dir: work }, { nodeId: 'node_1', exec: withNet })) as { result: { stdout: string } };
        return r.result.stdout.split('\n').filter((n) => n !== '');
      };
      expect(await nets(false)).toEqual(['lo']);
      expect((await nets(true)).filter((n) => n !== 'lo').length).toBeGreaterThan(0);
    });

    test("exit codes come through; run_code runs a file with the image's interpreter", async () => {
      expect(((await bash('exit 3')) as { result: { exit_code: number } }).result.exit_code).toBe(3);
      writeFileSync(join(work, 'step.sh'), 'echo "in $(pwd) as $(id -u)"; exit 4\n');
      const r = (await pool.call('run_code', { filename: 'step.sh', work_dir: work }, { nodeId: 'node_1', exec })) as { result: { stdout: string; exit_code: number } };
      expect(r.result).toMatchObject({ exit_code: 4, stdout: expect.stringContaining(`in ${work}`) });
    });

    test('a command past its timeout is stopped, and its container with it', async () => {
      const r = (await bash('sleep 60', 2)) as { result: { timed_out: boolean } };
      expect(r.result.timed_out).toBe(true);
      const running = async () => {
        // podman names an imported image localhost/<name>, which its ancestor filter does not take for <name>
        const p = Bun.spawn([real!.binary, 'ps', '--format', '{{.ID}} {{.Image}}'], { stdout: 'pipe', stderr: 'ignore' });
        const rows = (await new Response(p.stdout).text()).split('\n').filter((row) => row.endsWith(real!.image));
        return rows.join('\n');
      };
      for (let i = 0; i < 50 && (await running()) !== ''; i++) await Bun.sleep(100);
      expect(await running()).toBe('');
    });

    test('without the container the same call runs on this machine', async () => {
      const r = (await pool.call('run_bash', { command: `test -e ${join(dir, 'outside.txt')} && echo visible`, work_dir: work }, { nodeId: 'node_1' })) as { result: { stdout: string } };
      expect(r.result.stdout).toBe('visible\n');
    });
  });
}
