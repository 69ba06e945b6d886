/**
 * The real single-node Slurm cluster the scheduler tests run against. `npm test` starts it
 * (scripts/test-setup.sh); where it is not running, test/support/components.ts starts it as root,
 * or the tests that need it are skipped (`lacks('slurm')`).
 */
import { lacks } from './components.ts';

/** For scripts that cannot go on without the cluster (benches): throws naming how to get one. */
export async function ensureSlurm(): Promise<void> {
  if (lacks('slurm')) throw new Error('no Slurm cluster here: run as root on Debian or Ubuntu, where test/support/slurm/start.sh starts one');
}
