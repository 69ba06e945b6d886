import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDefines, buildFacts } from '../../../src/core/build-facts.ts';
import { InputError } from '../../../src/core/errors.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
let env: Record<string, string>;
beforeEach(() => {
  dir = tempDir();
  // no GIT_DIR or the like from the caller's environment
  env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, GIT_CONFIG_NOSYSTEM: '1' };
});
afterEach(() => removeDir(dir));

function git(...args: string[]): string {
  const r = Bun.spawnSync(['git', '-C', dir, ...args], { env: { ...env, GIT_AUTHOR_DATE: '2025-03-04T23:30:00-05:00', GIT_COMMITTER_DATE: '2025-03-04T23:30:00-05:00' }, stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

/** A repository with one commit, made at 23:30 in New York on 4 March 2025: 5 March in UTC. */
function committedRepo(): string {
  git('init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-q', '-m', 'one');
  return git('rev-parse', 'HEAD');
}

const utcToday = () => new Date().toISOString().slice(0, 10);

describe('buildFacts', () => {
  test("a clean tree: the commit's first 12 hex digits and its day in UTC", async () => {
    const sha = committedRepo();
    expect(await buildFacts(dir, env)).toEqual({ commit: sha.slice(0, 12), date: '2025-03-05' });
  });

  test('uncommitted changes, or a file git does not know yet, make it -dirty', async () => {
    const sha = committedRepo();
    writeFileSync(join(dir, 'a.txt'), 'changed\n');
    expect((await buildFacts(dir, env)).commit).toBe(`${sha.slice(0, 12)}-dirty`);
    git('checkout', '--', 'a.txt');
    writeFileSync(join(dir, 'new.ts'), 'export {};\n');
    expect((await buildFacts(dir, env)).commit).toBe(`${sha.slice(0, 12)}-dirty`);
  });

  test('an ignored file leaves it clean', async () => {
    const sha = committedRepo();
    writeFileSync(join(dir, '.git', 'info', 'exclude'), 'dist/\n');
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'svc'), 'binary');
    expect((await buildFacts(dir, env)).commit).toBe(sha.slice(0, 12));
  });

  test("SOURCE_DATE_EPOCH, when set, is the date instead of the commit's", async () => {
    committedRepo();
    expect((await buildFacts(dir, { ...env, SOURCE_DATE_EPOCH: '1700000000' })).date).toBe('2023-11-14');
    expect((await buildFacts(dir, { ...env, SOURCE_DATE_EPOCH: '0' })).date).toBe('1970-01-01');
    // empty counts as unset
    expect((await buildFacts(dir, { ...env, SOURCE_DATE_EPOCH: '' })).date).toBe('2025-03-05');
  });

  test('outside git the commit is unknown; the date is SOURCE_DATE_EPOCH, else today (UTC)', async () => {
    expect(await buildFacts(dir, { ...env, SOURCE_DATE_EPOCH: '1700000000' })).toEqual({ commit: 'unknown', date: '2023-11-14' });
    const before = utcToday();
    const { commit, date } = await buildFacts(dir, env);
    expect(commit).toBe('unknown');
    expect([before, utcToday()]).toContain(date);
  });

  test('a repository without a commit, and a PATH without git, give commit unknown', async () => {
    git('init', '-q');
    expect((await buildFacts(dir, { ...env, SOURCE_DATE_EPOCH: '1' })).commit).toBe('unknown');
    committedRepo();
    const empty = join(dir, 'bin');
    mkdirSync(empty);
    expect(await buildFacts(dir, { ...env, PATH: empty, SOURCE_DATE_EPOCH: '1' })).toEqual({ commit: 'unknown', date: '1970-01-01' });
  });

  test.each(['yesterday', '-5', '1.5', '1e9', '99999999999999999'])('SOURCE_DATE_EPOCH=%s is refused, naming the value', async (value) => {
    const err = await buildFacts(dir, { ...env, SOURCE_DATE_EPOCH: value }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toContain(`'${value}'`);
  });
});

describe('buildDefines', () => {
  test('the facts as string literals for the bundler', () => {
    expect(buildDefines({ commit: '0123456789ab-dirty', date: '2026-11-29' })).toEqual({ SVC_BUILD_COMMIT: '"0123456789ab-dirty"', SVC_BUILD_DATE: '"2026-11-29"' });
  });
});
