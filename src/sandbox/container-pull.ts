import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Env } from '../core/config/env-vars.ts';
import { definedEnv } from '../core/config/environment.ts';
import { shellLine } from '../core/run-command.ts';
import { type ChosenRuntime, pullCommand, sifName } from './container.ts';
import { containerCacheDir } from './image-cache.ts';

export type PullStart = { started: true; runtime: string; image: string; log: string; command: string };

/**
 * Starts fetching `image` with the chosen runtime and returns at once. Every output line of the
 * pull, and its outcome, is appended to `log` with a `[container pull]` prefix; apptainer and
 * singularity write the image to the workspace's container cache. `done` settles with the exit code.
 */
export function startPull(chosen: ChosenRuntime, image: string, workspaceRoot: string, log: string, env: Env): PullStart & { done: Promise<number> } {
  const cache = containerCacheDir(workspaceRoot);
  const argv = pullCommand(chosen.runtime, image, join(cache, sifName(image)), chosen.path);
  mkdirSync(dirname(log), { recursive: true });
  if (chosen.runtime === 'apptainer' || chosen.runtime === 'singularity') mkdirSync(cache, { recursive: true });
  const write = (line: string) => appendFileSync(log, `[container pull] ${line}\n`);
  write(`started: ${shellLine(argv)}`);
  const proc = Bun.spawn(argv, { env: definedEnv(env), stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const done = Promise.all([copyLines(proc.stdout, write), copyLines(proc.stderr, write), proc.exited]).then(([, , code]) => {
    write(code === 0 ? `finished: ${image}` : `failed with exit code ${code}: ${image}`);
    return code;
  });
  return { started: true, runtime: chosen.runtime, image, log, command: shellLine(argv), done };
}

/** Progress bars redraw with carriage returns; each redraw counts as a line. */
async function copyLines(stream: ReadableStream<Uint8Array>, write: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of stream) {
    const parts = (rest + decoder.decode(chunk, { stream: true })).split(/\r\n|\r|\n/);
    rest = parts.pop() ?? '';
    for (const p of parts) if (p.trim() !== '') write(p);
  }
  if (rest.trim() !== '') write(rest);
}
