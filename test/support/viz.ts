import type { Subprocess } from 'bun';
import { SVC } from './svc.ts';

export type Viz = {
  base: string;
  proc: Subprocess;
  /** everything the server wrote to stderr so far */
  stderr: () => string;
  stop: () => Promise<number>;
  /** fetch a path of the server; JSON bodies are sent with the JSON content type */
  req: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;
  /** GET or POST a path and parse the JSON answer */
  get: (path: string) => Promise<{ status: number; body: any }>;
  post: (path: string, json?: unknown) => Promise<{ status: number; body: any }>;
};

/**
 * Starts `dist/svc viz` on a free port with a clean environment and waits until it listens.
 * `args` come after `viz` (a checkpoint or workspace directory, --host, ...).
 */
export async function startViz(args: string[], opts: { cwd: string; env?: Record<string, string> }): Promise<Viz> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: opts.cwd, NO_COLOR: '1', ...opts.env };
  const proc = Bun.spawn([SVC, 'viz', '--port', '0', ...args], { cwd: opts.cwd, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  let err = '';
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let base: string | undefined;
  while (base === undefined) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`svc viz exited before listening (code ${await proc.exited}): ${err}`);
    err += decoder.decode(value, { stream: true });
    base = /dashboard at (http:\/\/\S+)/.exec(err)?.[1];
  }
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      err += decoder.decode(value, { stream: true });
    }
  })();
  const req = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    if (json === undefined) return fetch(base + path, rest);
    return fetch(base + path, { method: 'POST', ...rest, headers: { 'content-type': 'application/json', ...(rest.headers as Record<string, string>) }, body: JSON.stringify(json) });
  };
  const parse = async (res: Response) => ({ status: res.status, body: await res.json() });
  return {
    base,
    proc,
    stderr: () => err,
    stop: async () => {
      proc.kill('SIGTERM');
      return proc.exited;
    },
    req,
    get: async (path) => parse(await req(path)),
    post: async (path, json = {}) => parse(await req(path, { json })),
  };
}
