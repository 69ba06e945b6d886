// A search in a process of its own, for tests that kill it: `bun search-child.ts <dir> <model url> <max nodes> <parallel>`.
// Each node sleeps a little, writes a file and scores by its id, so every run of the same tree scores alike.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSearch } from '../../src/search/scheduler.ts';
import { scored, searchContext } from './search-run.ts';

const [dir, url, maxNodes, parallel] = process.argv.slice(2) as [string, string, string, string];
const { ctx } = searchContext(dir, url, { settings: { maxNodes: Number(maxNodes), parallel: Number(parallel), maxDepth: 4 } });
const stop = new AbortController();
process.on('SIGTERM', () => stop.abort());
const r = await runSearch(
  ctx,
  async (t) => {
    await Bun.sleep(30 + (t.node.id.charCodeAt(6) % 60));
    writeFileSync(join(t.workDir, `${t.node.id}.txt`), t.node.id);
    const score = Number.parseInt(createHash('sha256').update(t.node.id).digest('hex').slice(0, 4), 16) / 65536;
    return scored(score);
  },
  { signal: stop.signal },
);
console.log(JSON.stringify({ ended: r.ended, nodes: r.nodes.length }));
