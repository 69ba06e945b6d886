import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { list } from 'tar';
import { reproduceSubmission } from '../../../src/bench/bridge/reproduce.ts';
import { lacks } from '../../support/components.ts';
import { ensureRuntime, pathWith, removePathDirs, TEST_IMAGE } from '../../support/container.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { refusal, STAND_IN_RUNTIME } from './bridge-fixture.ts';

let base: string;
let run: string;
let repo: string;
beforeEach(() => {
  base = tempDir();
  run = join(base, 'runs', 'job1');
  repo = join(run, 'repro_sandbox');
  mkdirSync(repo, { recursive: true });
});
afterEach(() => removeDir(base));
afterAll(() => removePathDirs());

const env = (more: Record<string, string> = {}) => ({ PATH: process.env.PATH, HOME: base, ...more });
const script = (text: string) => writeFileSync(join(repo, 'reproduce.sh'), `#!/bin/bash\n${text}`);
const reproduce = (more: Partial<Parameters<typeof reproduceSubmission>[0]> = {}, e: Record<string, string> = {}) =>
  reproduceSubmission({ submission_dir: repo, sandbox_kind: 'local', time_limit_sec: 120, env: env(e), ...more });
/** Counts its runs in ../attempts (outside the submission), then does `rest`. */
const counting = (rest: string) => script(`n=$(( $(cat ../attempts 2>/dev/null || echo 0) + 1 )); echo $n > ../attempts; echo "attempt $n"\n${rest}`);
const attemptsRun = () => Number(readFileSync(join(run, 'attempts'), 'utf8'));

describe('reproduceSubmission', () => {
  test('reproduce.sh runs once in the submission; the record is the last attempt with every attempt listed', async () => {
    counting('echo "comparisons: 20573"\n');
    const r = await reproduce();
    expect(r).toMatchObject({ sandbox_kind: 'local', exit_code: 0, timed_out: false, submission_dir: repo, log_path: join(repo, 'reproduce.log'), time_limit_sec: 120 });
    expect(r.attempts).toHaveLength(1);
    expect(r.total_wall_time_sec).toBe(r.attempts[0]?.wall_time_sec as number);
    expect(readFileSync(r.log_path, 'utf8')).toBe('attempt 1\ncomparisons: 20573\n');
    // ors_phase1.json goes into the run directory, outside the submission the judge reads
    expect(JSON.parse(readFileSync(join(run, 'ors_phase1.json'), 'utf8')).exit_code).toBe(0);
  });

  test('bad inputs are refused before anything runs', async () => {
    counting('');
    expect((await refusal(reproduce({ sandbox_kind: 'kubernetes' }))).message).toBe('sandbox_kind kubernetes is not a sandbox');
    expect((await refusal(reproduce({ time_limit_sec: 0 }))).message).toBe('time_limit_sec 0 is not a positive number of seconds');
    expect((await refusal(reproduce({ salvage_retries: -1 }))).message).toBe('salvage_retries -1 is not a count');
    expect(existsSync(join(run, 'attempts'))).toBe(false);
  });
});

describe('bridge rules 1 and 2: the submission root, and the patch commands', () => {
  test('a nested submission/ is where reproduce.sh runs and what the tarball holds; the stray top-level copy is ignored', async () => {
    script('echo stray > ran_top\n');
    mkdirSync(join(repo, 'submission'));
    writeFileSync(join(repo, 'submission', 'reproduce.sh'), '#!/bin/bash\necho nested; pwd\n');
    const r = await reproduce({ capture_tarball: true });
    expect(r).toMatchObject({ exit_code: 0, submission_dir: join(repo, 'submission'), log_path: join(repo, 'submission', 'reproduce.log') });
    expect(readFileSync(r.log_path, 'utf8')).toBe(`nested\n${join(repo, 'submission')}\n`);
    expect(existsSync(join(repo, 'ran_top'))).toBe(false);
    const names: string[] = [];
    await list({ file: r.tarball as string, onReadEntry: (e) => void names.push(e.path) });
    expect(names.sort()).toEqual(['reproduce.log', 'reproduce.sh']);
  });

  test('apply_patch and applypatch are on the local reproduction\'s PATH', async () => {
    script('command -v apply_patch applypatch | xargs -n1 basename\n');
    const r = await reproduce();
    expect(readFileSync(r.log_path, 'utf8')).toBe('apply_patch\napplypatch\n');
  });
});

describe('bridge rule 7: salvage_retries', () => {
  test('an early failure is retried up to salvage_retries times', async () => {
    counting('exit 3\n');
    const r = await reproduce({ salvage_retries: 2 });
    expect(attemptsRun()).toBe(3);
    expect(r.attempts.map((a) => a.exit_code)).toEqual([3, 3, 3]);
    expect(r.exit_code).toBe(3);
    expect(readFileSync(r.log_path, 'utf8')).toBe('attempt 3\n');
  });

  test('a success, and a failure later than retry_threshold_sec, are not retried', async () => {
    counting('exit 0\n');
    expect((await reproduce({ salvage_retries: 3 })).attempts).toHaveLength(1);
    writeFileSync(join(run, 'attempts'), '0');
    counting('sleep 1.5; exit 3\n');
    const late = await reproduce({ salvage_retries: 3, retry_threshold_sec: 0.5 });
    expect(late.attempts).toHaveLength(1);
    expect(attemptsRun()).toBe(1);
  });

  test('the budget is one for all attempts: a retry gets only the time left and is stopped when it is spent', async () => {
    // the first attempt fails at once; the second would run far beyond the budget
    counting('if [ "$n" = 1 ]; then exit 3; fi\necho started; sleep 60; echo finished\n');
    const r = await reproduce({ salvage_retries: 5, time_limit_sec: 3 });
    expect(r.attempts.map((a) => ({ exit: a.exit_code, timed_out: a.timed_out }))).toEqual([{ exit: 3, timed_out: false }, { exit: null, timed_out: true }]);
    expect(readFileSync(r.log_path, 'utf8')).toBe('attempt 2\nstarted\n');
    expect(attemptsRun()).toBe(2);
  });
});

describe('bridge rule 8: capture_tarball', () => {
  const entries = async (file: string) => {
    const names: string[] = [];
    await list({ file, onReadEntry: (e) => void names.push(e.path) });
    return names.sort();
  };

  test('each attempt leaves submission_executed_<UTC>.tar.gz beside the submission, with the files as that attempt left them', async () => {
    counting('echo out > "made_$n.txt"; exit 3\n');
    const r = await reproduce({ salvage_retries: 1, capture_tarball: true });
    const tarballs = readdirSync(run).filter((n) => n.endsWith('.tar.gz'));
    expect(tarballs).toHaveLength(2);
    for (const t of tarballs) expect(t).toMatch(/^submission_executed_\d{8}T\d{6}Z(-\d+)?\.tar\.gz$/);
    expect(new Set(r.attempts.map((a) => a.tarball))).toEqual(new Set(tarballs.map((t) => join(run, t))));
    expect(await entries(r.attempts[0]?.tarball as string)).toEqual(['made_1.txt', 'reproduce.log', 'reproduce.sh']);
    expect(await entries(r.attempts[1]?.tarball as string)).toEqual(['made_1.txt', 'made_2.txt', 'reproduce.log', 'reproduce.sh']);
  });

  test('tarball_dir puts them there; without capture_tarball there is none', async () => {
    counting('exit 0\n');
    const dir = join(base, 'tarballs');
    const r = await reproduce({ capture_tarball: true, tarball_dir: dir });
    expect(readdirSync(dir)).toEqual([(r.tarball as string).split('/').pop() as string]);
    await reproduce();
    expect(readdirSync(run).filter((n) => n.endsWith('.tar.gz'))).toEqual([]);
  });
});

describe('bridge rule 5: forbid_host_filesystem', () => {
  test('local and slurm are refused naming the option; auto does not end on either', async () => {
    counting('exit 0\n');
    for (const kind of ['local', 'slurm']) {
      const err = await refusal(reproduce({ sandbox_kind: kind, forbid_host_filesystem: true }));
      expect(err.message).toBe(`sandbox_kind ${kind} is refused: forbid_host_filesystem is true and it runs on the host file system`);
    }
    // no container runtime here: auto has nothing left
    const bare = pathWith([]);
    const auto = await refusal(reproduce({ sandbox_kind: 'auto', forbid_host_filesystem: true }, { PATH: `${bare}:/usr/bin:/bin` }));
    expect(auto.message).toStartWith('sandbox_kind auto found no sandbox that can run here and is not refused');
    expect(auto.message).toContain('slurm: refused: forbid_host_filesystem is true');
    expect(auto.message).toContain('local: refused: forbid_host_filesystem is true');
    expect(existsSync(join(run, 'attempts'))).toBe(false);
  });

  test('docker is allowed (bridge rule 3: bench-reproducer is bench-reproducer:latest)', async () => {
    counting('echo in the container\n');
    const PATH = `${pathWith(['docker'], STAND_IN_RUNTIME)}:${process.env.PATH}`;
    const r = await reproduce({ sandbox_kind: 'docker', container_image: 'bench-reproducer', forbid_host_filesystem: true }, { PATH });
    expect(r).toMatchObject({ sandbox_kind: 'docker', exit_code: 0, image: 'bench-reproducer:latest' });
    expect(r.command).toContain(' bench-reproducer:latest ');
    expect(readFileSync(r.log_path, 'utf8')).toBe('attempt 1\nin the container\n');
  });
});

/** The agent-written script prints a provider key, the caller's HF_TOKEN and the agent env file's variable. */
const PRINTS_ENV = 'echo "key=${OPENAI_API_KEY-unset} hf=${HF_TOKEN-unset} file=${FROM_FILE-unset}"\n';
const SEEN_ENV = 'key=unset hf=hf_caller file=granted\n';
/** The caller's environment: a provider key, HF_TOKEN, and an agent env file (bridge rule 4). */
function secretEnv(more: Record<string, string> = {}): Record<string, string> {
  const file = join(base, 'agent.env');
  writeFileSync(file, 'FROM_FILE=granted\n');
  return { OPENAI_API_KEY: 'sk-reproduce-secret-0001', SVC_AGENT_ENV_PATH: file, HF_TOKEN: 'hf_caller', ...more };
}

describe('the environment reproduce.sh runs with: no secret, what bridge rule 4 grants', () => {
  test('local', async () => {
    script(PRINTS_ENV);
    const r = await reproduce({}, secretEnv());
    expect(readFileSync(r.log_path, 'utf8')).toBe(SEEN_ENV);
  });

  test('a container runtime that passes the host environment (a stand-in apptainer)', async () => {
    script(PRINTS_ENV);
    const PATH = `${pathWith(['apptainer'], STAND_IN_RUNTIME)}:${process.env.PATH}`;
    const r = await reproduce({ sandbox_kind: 'apptainer', container_image: 'bench-env' }, secretEnv({ PATH }));
    expect(r.sandbox_kind).toBe('apptainer');
    expect(readFileSync(r.log_path, 'utf8')).toBe(SEEN_ENV);
  });

  test('docker: the granted variables by name, nothing else', async () => {
    const rt = await ensureRuntime('docker');
    if ('reason' in rt) {
      console.error(`skipped: reproduce.sh's environment in docker (${rt.reason})`);
      return;
    }
    script(PRINTS_ENV);
    const r = await reproduce({ sandbox_kind: 'docker', container_image: TEST_IMAGE }, secretEnv());
    expect(r).toMatchObject({ sandbox_kind: 'docker', exit_code: 0 });
    expect(r.command).not.toContain('sk-reproduce-secret');
    expect(readFileSync(r.log_path, 'utf8')).toBe(SEEN_ENV);
  }, 60_000);

  test.skipIf(lacks('slurm'))('a real Slurm job (sbatch exports the environment it is given)', async () => {
    script(PRINTS_ENV);
    const r = await reproduce({ sandbox_kind: 'slurm', partition: 'debug', time_limit_sec: 300 }, secretEnv());
    expect(r).toMatchObject({ sandbox_kind: 'slurm', exit_code: 0 });
    expect(readFileSync(r.log_path, 'utf8')).toBe(SEEN_ENV);
  }, 60_000);
});

describe.skipIf(lacks('slurm'))('reproduceSubmission as a real Slurm job', () => {
  test('the resource flags reach the job: nodes, ntasks, ntasks_per_node, and cpu_bind as SLURM_CPU_BIND', async () => {
    script('echo "nodes=$SLURM_JOB_NUM_NODES ntasks=$SLURM_NTASKS per_node=$SLURM_NTASKS_PER_NODE bind=$SLURM_CPU_BIND"\n');
    const r = await reproduce({ sandbox_kind: 'slurm', partition: 'debug', nodes: 1, ntasks: 1, ntasks_per_node: 1, cpu_bind: 'none', time_limit_sec: 300 });
    expect(r).toMatchObject({ sandbox_kind: 'slurm', exit_code: 0, partition: 'debug' });
    expect(readFileSync(r.log_path, 'utf8')).toBe('nodes=1 ntasks=1 per_node=1 bind=none\n');
    const batch = readFileSync(join(run, '.svc-reproduce', 'jobs', '.svc-jobs', `${r.job_id}.sbatch`), 'utf8');
    expect(batch).toContain('#SBATCH --nodes=1\n#SBATCH --ntasks=1\n#SBATCH --ntasks-per-node=1\n');
  }, 60_000);

  test('a constraint no node has keeps the job from running: sbatch refuses it', async () => {
    script('echo ran\n');
    const err = await refusal(reproduce({ sandbox_kind: 'slurm', partition: 'debug', constraint: 'no_such_feature', time_limit_sec: 300 }));
    expect(err.message).toContain('sbatch');
    expect(existsSync(join(repo, 'reproduce.log'))).toBe(false);
  }, 60_000);

  test('a constraint or cpu_bind that is not one word is refused before sbatch', async () => {
    script('echo ran\n');
    expect((await refusal(reproduce({ sandbox_kind: 'slurm', partition: 'debug', constraint: 'a b' }))).message).toBe("constraint 'a b' is not one word");
    expect((await refusal(reproduce({ sandbox_kind: 'slurm', partition: 'debug', cpu_bind: 'x;rm' }))).message).toBe("cpu_bind 'x;rm' is not one word");
  }, 60_000);
});
