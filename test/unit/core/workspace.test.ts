import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSystemDir, makeOwnDir, projectRoot } from '../../../src/core/workspace.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let base: string;
let home: string;
beforeEach(() => {
  base = tempDir();
  home = join(base, 'home', 'ada');
  mkdirSync(join(home, 'papers', 'sorting', 'src'), { recursive: true });
});
afterEach(() => removeDir(base));

describe('projectRoot', () => {
  test('~/.svc, which svc makes itself, does not make home a project', () => {
    mkdirSync(join(home, '.svc', 'memory'), { recursive: true });
    const cwd = join(home, 'papers', 'sorting', 'src');
    expect(projectRoot({ HOME: home }, cwd)).toBe(cwd);
  });

  test('markers in home or above it (a stray workspace/ in /) do not count', () => {
    mkdirSync(join(home, 'workspace'));
    writeFileSync(join(home, 'workflow.yaml'), '');
    mkdirSync(join(base, 'workspace'));
    mkdirSync(join(base, 'home', '.svc'));
    const cwd = join(home, 'papers', 'sorting');
    expect(projectRoot({ HOME: home }, cwd)).toBe(cwd);
  });

  test('the nearest marker below home is the project', () => {
    writeFileSync(join(home, 'papers', 'sorting', 'workflow.yaml'), '');
    mkdirSync(join(home, 'papers', '.svc'));
    expect(projectRoot({ HOME: home }, join(home, 'papers', 'sorting', 'src'))).toBe(join(home, 'papers', 'sorting'));
  });

  test('outside home the walk goes on to the root, but never counts an ancestor of home', () => {
    const scratch = join(base, 'scratch', 'ada', 'run1');
    mkdirSync(scratch, { recursive: true });
    mkdirSync(join(base, 'scratch', 'ada', 'workspace'));
    expect(projectRoot({ HOME: home }, scratch)).toBe(join(base, 'scratch', 'ada'));
    removeDir(join(base, 'scratch', 'ada', 'workspace'));
    mkdirSync(join(base, 'workspace'));
    expect(projectRoot({ HOME: home }, scratch)).toBe(scratch);
  });

  test('SVC_ROOT wins, even when it is home', () => {
    expect(projectRoot({ HOME: home, SVC_ROOT: home }, join(home, 'papers'))).toBe(home);
  });
});

describe('svc makes its own directories only outside the system', () => {
  test('/ and the system trees are system directories; homes, /tmp, /var/tmp and scratch are not', () => {
    for (const d of ['/', '/usr', '/usr/local/bin', '/etc', '/var', '/var/lib/svc', '/proc/1', '/bin']) expect([d, isSystemDir(d)]).toEqual([d, true]);
    for (const d of ['/home/ada', '/root', '/tmp', '/tmp/x', '/var/tmp/run', '/scratch/ada', '/opt/lab', '/usrlocal']) expect([d, isSystemDir(d)]).toEqual([d, false]);
  });

  test('a directory whose first new part would be made in / or a system directory is refused, and nothing is made', () => {
    const name = `svc-test-${process.pid}-${Date.now()}`;
    expect(() => makeOwnDir(join('/', name, 'checkpoints'))).toThrow(`svc will not create /${name}: / is a system directory`);
    expect(existsSync(join('/', name))).toBe(false);
    expect(() => makeOwnDir(join('/usr/lib', name, '.svc'))).toThrow('/usr/lib is a system directory');
    expect(existsSync(join('/usr/lib', name))).toBe(false);
  });

  test('below a user directory it is made with its parents; one that exists is left as it is', () => {
    makeOwnDir(join(home, 'proj', 'workspace', 'checkpoints'));
    expect(existsSync(join(home, 'proj', 'workspace', 'checkpoints'))).toBe(true);
    makeOwnDir(join(home, 'proj', 'workspace', 'checkpoints'));
  });
});
