import { afterEach, beforeEach } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, loadConfig } from '../../../src/core/config/config.ts';
import { createModelClient, type ModelClient } from '../../../src/llm/client.ts';
import { type ModelServer, startModelServer } from '../../support/model-server.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

/** A temp project with a home directory and a checkpoint, so no real .env file is read. */
export type Sandbox = { dir: string; project: string; checkpoint: string; load(env?: Record<string, string>): Config; close(): void };

export function sandbox(): Sandbox {
  const dir = tempDir('svc-llm-');
  const project = join(dir, 'project');
  const checkpoint = join(project, 'workspace', 'checkpoints', 'run1');
  mkdirSync(checkpoint, { recursive: true });
  mkdirSync(join(dir, 'home'));
  return {
    dir,
    project,
    checkpoint,
    load: (env = {}) => loadConfig({ cwd: project, env: { HOME: join(dir, 'home'), ...env } }),
    close: () => removeDir(dir),
  };
}

/** A fresh sandbox and scripted model server for every test of the file, handed to `use`. */
export function freshEachTest(use: (box: Sandbox, server: ModelServer) => void): void {
  let box: Sandbox | undefined;
  let server: ModelServer | undefined;
  beforeEach(() => {
    box = sandbox();
    server = startModelServer();
    use(box, server);
  });
  afterEach(() => {
    server?.stop();
    box?.close();
  });
}

/** A client for `env`; the checkpoint is used only when asked for. */
export function client(box: Sandbox, env: Record<string, string>, withCheckpoint = false): ModelClient {
  const cfg = box.load(env);
  return createModelClient({ cfg, checkpointDir: withCheckpoint ? box.checkpoint : null });
}

/** A port on 127.0.0.1 where nothing listens: bound, read and released. */
export function closedPort(): number {
  const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
  const port = s.port as number;
  s.stop(true);
  return port;
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the call to fail');
}
