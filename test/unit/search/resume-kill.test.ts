import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { childIdOf } from '../../../src/search/node.ts';
import { type ResponderServer, startResponderServer } from '../../support/model-server-responder.ts';
import { instantAnswer } from '../../support/search-run.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const CHILD = join(import.meta.dir, '../../support/search-child.ts');
const BUN = process.execPath;
const MAX_NODES = 40;
const KILLS = 8;

let server: ResponderServer;
let dir: string;
beforeAll(() => {
  dir = tempDir('svc-kill-');
  // some expansions answer with other labels, so the tree is not all alike
  server = startResponderServer((r) => (r.prompt === 'orchestrator/bfts_expand' && r.system.length % 3 === 0 ? '[{"label": "ablation", "direction": "Drop the prefetch"}]' : instantAnswer(r.prompt)));
});
afterAll(() => {
  server.stop();
  removeDir(dir);
});

/** The child's output, and whether the kill landed before it ended. */
async function runChild(at: string, killAfterMs: number | null): Promise<{ out: string; killed: boolean }> {
  const p = Bun.spawn([BUN, CHILD, at, server.url, String(MAX_NODES), '3'], { stdout: 'pipe', stderr: 'pipe' });
  if (killAfterMs !== null) {
    await Promise.race([Bun.sleep(killAfterMs), p.exited]);
    p.kill('SIGKILL');
  }
  await p.exited;
  return { out: await new Response(p.stdout).text(), killed: p.signalCode === 'SIGKILL' };
}

/**
 * Every JSON file of the checkpoint parses, and the tree hangs together. results.json, a view
 * rewritten at most once a second during a search, names only nodes of the tree; after the
 * search's last save (`ended`), every one of them.
 */
function checkWhole(at: string, ended = false): { nodes: { id: string; status: string }[] } | null {
  const ckpt = join(at, 'workspace', 'checkpoints', 'run1');
  if (!existsSync(ckpt)) return null; // killed before it made the checkpoint
  for (const f of readdirSync(ckpt).filter((f) => f.endsWith('.json'))) JSON.parse(readFileSync(join(ckpt, f), 'utf8'));
  if (!existsSync(join(ckpt, 'tree.json'))) return null;
  const tree = JSON.parse(readFileSync(join(ckpt, 'tree.json'), 'utf8'));
  const ids = new Set<string>();
  for (const n of tree.nodes) {
    expect(ids.has(n.id)).toBe(false);
    ids.add(n.id);
    n.children.forEach((c: string, i: number) => expect(c).toBe(childIdOf(n.id, i)));
  }
  for (const n of tree.nodes) if (n.parent_id) expect(tree.nodes.find((p: { id: string }) => p.id === n.parent_id).children).toContain(n.id);
  for (const id of tree.search_state.frontier) expect(ids.has(id)).toBe(true);
  if (existsSync(join(ckpt, 'results.json'))) {
    const inResults = Object.keys(JSON.parse(readFileSync(join(ckpt, 'results.json'), 'utf8')).nodes);
    expect(inResults.filter((id) => !ids.has(id))).toEqual([]);
    if (ended) expect(inResults.length).toBe(ids.size);
  }
  return tree;
}

test('a search killed with SIGKILL at random moments, resumed each time, ends with the node count of an uninterrupted run and whole files', async () => {
  const straight = join(dir, 'straight');
  const out = JSON.parse((await runChild(straight, null)).out);
  expect(out).toEqual({ ended: 'done', nodes: MAX_NODES });

  const killed = join(dir, 'killed');
  let kills = 0;
  for (let i = 0; i < 60; i++) {
    // early kills land in start-up and the first nodes, later ones deep in the search
    if ((await runChild(killed, 50 + Math.floor(Math.random() * 500))).killed) kills++;
    const tree = checkWhole(killed);
    if (kills >= KILLS && tree && tree.nodes.length === MAX_NODES && tree.nodes.every((n) => n.status === 'success')) break;
  }
  const last = JSON.parse((await runChild(killed, null)).out);
  expect(last).toEqual({ ended: 'done', nodes: MAX_NODES });
  const tree = checkWhole(killed, true);
  expect(tree?.nodes.every((n) => n.status === 'success')).toBe(true);
  expect(kills).toBeGreaterThanOrEqual(KILLS);
  // every node's work directory holds its own file and those of its ancestors
  const exp = join(killed, 'workspace', 'experiments', 'run1');
  for (const n of tree?.nodes ?? []) expect(existsSync(join(exp, n.id, `${n.id}.txt`))).toBe(true);
}, 120_000);
