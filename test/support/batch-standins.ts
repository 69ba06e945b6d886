/**
 * Stand-ins for the PBS (`qsub`, `qstat`, `qdel`) and LSF (`bsub`, `bjobs`, `bkill`) commands,
 * for tests of a cluster no server of which can be installed here. They speak the real commands'
 * protocol (the output formats of the recordings in test/fixtures/sandbox/) and really run each
 * job, in the background, honouring its directives' output paths (test/fixtures/sandbox/standin/).
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE = join(import.meta.dir, '..', 'fixtures', 'sandbox', 'standin');

export type StandinJob = { seq: string; name: string; state: string; exit: number | null; deleted: boolean; running: boolean };

/** The stand-in commands copied into `dir` (for the front of PATH); their jobs are kept below it. */
export function installBatchStandins(dir: string): { bin: string; jobs: () => StandinJob[] } {
  const bin = join(dir, 'standin-bin');
  mkdirSync(bin, { recursive: true });
  for (const name of readdirSync(SOURCE)) {
    copyFileSync(join(SOURCE, name), join(bin, name));
    chmodSync(join(bin, name), 0o755);
  }
  const root = join(bin, 'jobs');
  const read = (job: string, file: string) => (existsSync(join(job, file)) ? readFileSync(join(job, file), 'utf8').trim() : null);
  const jobs = () =>
    (existsSync(root) ? readdirSync(root) : []).sort().map((seq) => {
      const job = join(root, seq);
      const exit = read(job, 'exit');
      const pid = Number(read(job, 'pid'));
      return { seq, name: read(job, 'name') ?? '', state: read(job, 'state') ?? '', exit: exit === null ? null : Number(exit), deleted: existsSync(join(job, 'deleted')), running: pid > 0 && groupAlive(pid) };
    });
  return { bin, jobs };
}

/** Whether any process of the job's session (its process group) is left. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
