import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:net';
import { create } from 'tar';

/** A gzip tarball at `out` of `files` (name → content), in the order given. */
export async function makeTarball(dir: string, out: string, files: Record<string, string>): Promise<string> {
  const src = join(dir, `src-${Math.random().toString(36).slice(2)}`);
  mkdirSync(src, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(src, name, '..'), { recursive: true });
    writeFileSync(join(src, name), content);
  }
  await create({ gzip: true, file: out, cwd: src, portable: true }, Object.keys(files));
  return out;
}

/** A bundle with a manifest.lock; `tag` makes its bytes (and so its id) differ from another's. */
export function makeBundle(dir: string, tag: string): Promise<string> {
  return makeTarball(dir, join(dir, `${tag}.tar.gz`), { 'manifest.lock': `{"version":1,"tag":"${tag}"}\n`, 'code/run.py': `print('${tag}')\n` });
}

/** Sends raw bytes over TCP and returns what came back (the connection closed by `close`). */
export function rawRequest(port: number, data: string | Buffer, opts: { closeAfterMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    socket.on('data', (c: Buffer) => got.push(c));
    socket.on('error', (e) => (got.length ? resolve(Buffer.concat(got).toString()) : reject(e)));
    socket.on('close', () => resolve(Buffer.concat(got).toString()));
    socket.write(data, () => {
      if (opts.closeAfterMs !== undefined) setTimeout(() => socket.destroy(), opts.closeAfterMs);
    });
  });
}
