import type { Subprocess } from 'bun';
import { SVC } from './svc.ts';

export type RegistryChild = { url: string; proc: Subprocess<'ignore', 'pipe', 'pipe'>; stop: () => Promise<void> };

/** `svc registry serve` on a free port of 127.0.0.1 as a child process; resolves once it listens. */
export async function spawnRegistry(dataDir: string, env: Record<string, string> = {}): Promise<RegistryChild> {
  const proc = Bun.spawn([SVC, 'registry', 'serve', '--port', '0', '--data-dir', dataDir], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dataDir, NO_COLOR: '1', ...env },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const reader = proc.stderr.getReader();
  let seen = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`svc registry serve exited (${await proc.exited}): ${seen}`);
    seen += new TextDecoder().decode(value);
    const m = /serving .* at (http:\/\/\S+)/.exec(seen);
    if (m?.[1]) {
      // keep draining stderr so the child never blocks on a full pipe
      void (async () => {
        while (!(await reader.read().catch(() => ({ done: true }))).done);
      })();
      return {
        url: m[1],
        proc,
        stop: async () => {
          proc.kill('SIGTERM');
          await proc.exited;
        },
      };
    }
  }
}
