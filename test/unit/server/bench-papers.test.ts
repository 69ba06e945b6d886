// The benchmark paper routes in process with the real dashboard app (the binary's own front refuses
// a malformed path before routing; an app handled in process has only the route's check).
import { afterEach, beforeEach, expect, test } from 'bun:test';
import { join } from 'node:path';
import { createApp } from '../../../src/server/app.ts';
import { ServerContext } from '../../../src/server/context.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
let app: ReturnType<typeof createApp>;
beforeEach(() => {
  dir = tempDir();
  // nothing reaches a real arXiv: a port that refuses
  app = createApp(new ServerContext({ PATH: process.env.PATH ?? '', HOME: dir, SVC_ARXIV_API_BASE: 'http://127.0.0.1:9' }, dir, join(dir, 'workspace', 'checkpoints'), null));
});
afterEach(() => removeDir(dir));

test('an arXiv id with a malformed percent-escape is 400 naming it, not an internal error', async () => {
  const res = await app.handle(new Request('http://127.0.0.1/api/bench/arxiv/%E0%A4%A'));
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ error: "arXiv id '%E0%A4%A' is not valid URL encoding (percent-encode each byte of its UTF-8, such as %2F for a slash)" });
  // escaped once more it decodes, and is an id that is none
  const twice = await app.handle(new Request('http://127.0.0.1/api/bench/arxiv/%25E0%25A4%25A'));
  expect(twice.status).toBe(400);
  expect(((await twice.json()) as { error: string }).error).toStartWith("'%E0%A4%A' is not an arXiv id");
});
