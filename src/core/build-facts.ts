import type { Env } from './config/env-vars.ts';
import { InputError } from './errors.ts';
import { runCommand } from './run-command.ts';

/** What `svc --version` says of a build: the commit it was built from and the build date. */
export type BuildFacts = { commit: string; date: string };

const GIT_TIMEOUT_MS = 10_000;
/** Long enough never to be ambiguous, and the same in a shallow clone as in a full one. */
const SHORT_SHA = 12;

/**
 * The facts of a build of the tree at `dir`. The date is the commit's, or SOURCE_DATE_EPOCH's when
 * set, never the wall clock: two builds of one commit must be the same bytes. Outside git the
 * commit is `unknown` (and the date today's, unless SOURCE_DATE_EPOCH says otherwise).
 */
export async function buildFacts(dir: string, env: Env): Promise<BuildFacts> {
  const epoch = sourceDateEpoch(env);
  const git = Bun.which('git', { PATH: env.PATH ?? '' });
  const head = git ? await gitLine(git, dir, env, ['log', '-1', '--format=%H %cI']) : null;
  const [sha, committed] = head?.split(' ') ?? [];
  const date = epoch ?? (committed ? new Date(committed) : new Date());
  if (!git || !sha) return { commit: 'unknown', date: utcDay(date) };
  const changes = await gitLine(git, dir, env, ['status', '--porcelain']);
  return { commit: `${sha.slice(0, SHORT_SHA)}${changes ? '-dirty' : ''}`, date: utcDay(date) };
}

/** The `define` that fixes the facts into the binary (read by src/cli/version.ts). */
export function buildDefines(facts: BuildFacts): Record<string, string> {
  return { SVC_BUILD_COMMIT: JSON.stringify(facts.commit), SVC_BUILD_DATE: JSON.stringify(facts.date) };
}

/** SOURCE_DATE_EPOCH (reproducible-builds.org): whole seconds since 1970 in UTC; empty counts as unset. */
function sourceDateEpoch(env: Env): Date | null {
  const raw = env.SOURCE_DATE_EPOCH?.trim();
  if (raw === undefined || raw === '') return null;
  if (!/^\d+$/.test(raw)) throw new InputError(`SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC, got '${raw}'`, 'set it to e.g. $(git log -1 --format=%ct), or unset it');
  const date = new Date(Number(raw) * 1000);
  if (Number.isNaN(date.getTime())) throw new InputError(`SOURCE_DATE_EPOCH is out of range: '${raw}'`, 'set it to e.g. $(git log -1 --format=%ct), or unset it');
  return date;
}

/**
 * The output of a git command in `dir`, trimmed; null when git fails there (not a repository, no
 * commit yet). It takes no optional locks: a build must not get in the way of git commands beside it.
 */
async function gitLine(git: string, dir: string, env: Env, args: string[]): Promise<string | null> {
  const r = await runCommand([git, '--no-optional-locks', '-C', dir, ...args], env, GIT_TIMEOUT_MS);
  return r.code === 0 ? r.stdout.trim() : null;
}

/** The day in UTC, so that the builder's time zone does not change the binary. */
const utcDay = (d: Date) => d.toISOString().slice(0, 10);
