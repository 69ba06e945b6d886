import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnavailableError } from '../../../src/core/errors.ts';
import { jobsDir } from '../../../src/sandbox/job-state.ts';
import { lsfExecutor } from '../../../src/sandbox/lsf.ts';
import { pbsExecutor } from '../../../src/sandbox/pbs.ts';
import { SlurmExecutor } from '../../../src/sandbox/slurm.ts';
import { systemRunner } from '../../../src/sandbox/slurm-runner.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const root = tempDir('svc-choose-');
const emptyBin = join(root, 'empty-bin');
const fakeBin = join(root, 'bin');
for (const d of [emptyBin, fakeBin]) mkdirSync(d, { recursive: true });
afterAll(() => removeDir(root));

/** Stand-ins for the scheduler's submit commands, printing what the real ones print. */
function fakeCommand(name: string, body: string): void {
  writeFileSync(join(fakeBin, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(fakeBin, name), 0o755);
}
fakeCommand('sbatch', 'echo 42');
fakeCommand('bsub', `/bin/cat > "${root}/bsub-stdin"; echo 'Job <9> is submitted to queue <normal>.'`);

const stateDir = join(root, 'state');
const job = (dir: string) => ({ command: ['true'], workDir: join(root, dir), name: 'n', wallTimeS: 60 });

describe('systemRunner', () => {
  test('slurm runs sbatch from the given PATH and sends logs to the log dir', async () => {
    const logs = join(root, 'slurm-logs');
    const exec = new SlurmExecutor({ stateDir, logDir: logs, runner: systemRunner({ PATH: fakeBin }, 'Slurm') });
    const ref = await exec.submit(job('slurm'));
    expect(ref.id).toBe('42');
    const rec = JSON.parse(readFileSync(join(jobsDir(ref.workDir), '42.json'), 'utf8'));
    expect(rec.stdoutPath).toBe(join(logs, 'n-42.out'));
  });

  test('pbs and lsf name their own client and the fix when its command is missing, leaving no script behind', async () => {
    for (const [kind, cmd, client, make] of [['pbs', 'qsub', 'PBS', pbsExecutor], ['lsf', 'bsub', 'LSF', lsfExecutor]] as const) {
      const exec = make({ stateDir, runner: systemRunner({ PATH: emptyBin }, client) });
      expect(exec.kind).toBe(kind);
      const err = await exec.submit(job(`missing-${kind}`)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnavailableError);
      expect((err as UnavailableError).message).toBe(`${cmd} not found on PATH: ${client} jobs cannot be run from this machine`);
      expect((err as UnavailableError).hint).toBe(`install the ${client} client or set SVC_EXECUTOR=local`);
      expect(readdirSync(jobsDir(join(root, `missing-${kind}`)))).toEqual([]);
    }
  });

  test('a spec with both or neither of script and command, or an environment variable that is no name, is refused before anything is written', async () => {
    const exec = new SlurmExecutor({ stateDir, runner: systemRunner({ PATH: fakeBin }, 'Slurm') });
    const wd = join(root, 'bad');
    await expect(exec.submit({ workDir: wd, name: 'x', wallTimeS: 5 })).rejects.toThrow('exactly one of script');
    await expect(exec.submit({ script: 'true', command: ['true'], workDir: wd, name: 'x', wallTimeS: 5 })).rejects.toThrow('exactly one of script');
    await expect(exec.submit({ script: 'true', workDir: wd, name: 'env', wallTimeS: 10, env: { 'X=1; touch pwned #': 'v' } })).rejects.toThrow('is not an environment variable name');
    expect(existsSync(wd) ? readdirSync(wd) : []).toEqual([]);
  });

  test('lsf feeds the script to bsub on stdin', async () => {
    const exec = lsfExecutor({ stateDir, runner: systemRunner({ PATH: fakeBin }, 'LSF') });
    const ref = await exec.submit(job('lsf'));
    expect(ref).toEqual({ id: '9', kind: 'lsf', workDir: join(root, 'lsf') });
    expect(readFileSync(join(root, 'bsub-stdin'), 'utf8')).toBe(readFileSync(join(jobsDir(ref.workDir), '9.lsf'), 'utf8'));
    expect(readFileSync(join(root, 'bsub-stdin'), 'utf8')).toContain('#BSUB -J n\n');
  });
});
