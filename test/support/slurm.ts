/**
 * The real single-node Slurm cluster the scheduler tests run against: started once per test
 * process by test/support/slurm/start.sh (installs the Debian packages when missing, root only).
 */
import { join } from 'node:path';

let ready: Promise<void> | undefined;

function nodeUp(): boolean {
  if (!Bun.which('sinfo')) return false;
  const r = Bun.spawnSync(['sinfo', '-h', '-o', '%t'], { stdout: 'pipe', stderr: 'ignore' });
  return r.exitCode === 0 && /^(idle|mix|alloc)$/m.test(r.stdout.toString());
}

export function ensureSlurm(): Promise<void> {
  ready ??= (async () => {
    if (nodeUp()) return;
    const proc = Bun.spawn(['bash', join(import.meta.dir, 'slurm', 'start.sh')], { stdout: 'pipe', stderr: 'pipe' });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(`test/support/slurm/start.sh failed (${code}): ${(err || out).trim()}`);
  })();
  return ready;
}
