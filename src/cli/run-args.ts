import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { InputError } from '../core/errors.ts';
import { isFileAt, resolveInside } from '../core/paths.ts';
import { wantsMaEngine } from '../ideas/ma-engine.ts';
import { maSettings } from '../ideas/ma-settings.ts';
import { readCassetteHeader } from '../llm/cassette.ts';

/** Flags of `svc run` that become variables of the run (and of its skill processes). */
export const MA_FLAGS = {
  'ma-k': 'SVC_IDEA_MA_K',
  'ma-team-size': 'SVC_IDEA_MA_TEAM_SIZE',
  'ma-n-authors': 'SVC_IDEA_MA_N_AUTHORS',
  'ma-n-papers': 'SVC_IDEA_MA_N_PAPERS',
} as const;

export type RunFlags = { 'ma-live'?: boolean; replay?: string } & Partial<Record<keyof typeof MA_FLAGS, string>>;

/** The run's environment: the process's, with what the flags set. */
export function runEnvironment(flags: RunFlags, env: NodeJS.ProcessEnv, cwd: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const [flag, name] of Object.entries(MA_FLAGS)) {
    const raw = flags[flag as keyof typeof MA_FLAGS];
    if (raw === undefined) continue;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new InputError(`--${flag} must be a positive whole number, got '${raw}'`);
    out[name] = raw;
  }
  if (flags['ma-live'] !== undefined) out.SVC_IDEA_MA_LIVE = flags['ma-live'] ? '1' : '0';
  if (flags.replay !== undefined) {
    const file = resolve(cwd, flags.replay);
    if (!isFileAt(file)) throw new InputError(`no cassette at ${file}`, 'give the llm_cassette.jsonl of a recorded run');
    out.SVC_BACKEND = 'replay';
    out.SVC_REPLAY_CASSETTE = file;
  }
  // a value out of range is refused now, not after the survey when the idea engine reads it
  if (wantsMaEngine(out)) maSettings(out, 1);
  return out;
}

/**
 * The workflow a replayed cassette carries, with the files it names beside it, as a file to run
 * with when no --config is given: the answers fit the requests of that workflow only. Null for a
 * cassette without one. A file name leading out of the directory is refused.
 */
export function carriedWorkflow(cassette: string): { path: string; remove: () => void } | null {
  const header = readCassetteHeader(cassette);
  if (header === null) return null;
  const dir = mkdtempSync(join(tmpdir(), 'svc-replay-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const path = join(dir, 'workflow.yaml');
    writeFileSync(path, header.workflow);
    for (const [name, text] of Object.entries(header.files ?? {})) {
      const file = resolveInside(dir, name, `file the cassette ${cassette} carries`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    return { path, remove };
  } catch (err) {
    remove();
    throw err;
  }
}
