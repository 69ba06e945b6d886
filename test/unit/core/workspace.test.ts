import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../src/core/workspace.ts';
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
