import { afterEach, beforeEach, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { defaultMemoryDataDir } from '../../../src/memory/server.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

test("the memory database lives in the user's home, shared by the user's projects", () => {
  const home = join(dir, 'home', 'ada');
  mkdirSync(home, { recursive: true });
  expect(defaultMemoryDataDir({ HOME: home }, join(dir, 'proj'))).toBe(join(home, '.svc', 'memory'));
});

test('a home of / or a system directory (a service account) keeps it in the project instead', () => {
  const project = join(dir, 'proj');
  mkdirSync(join(project, 'workspace'), { recursive: true });
  for (const home of ['/', '/var/lib/svc', '/usr/sbin']) {
    expect([home, defaultMemoryDataDir({ HOME: home }, project)]).toEqual([home, join(project, '.svc', 'memory')]);
  }
});
