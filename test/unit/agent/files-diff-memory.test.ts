import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashTree } from '../../../src/agent/files-diff.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const SRC = join(import.meta.dir, '../../../src/agent/files-diff.ts');
const BIG = 1024 * 1024 * 1024;
let dir: string;
beforeAll(() => {
  dir = tempDir('svc-diff-mem-');
  // a node's data set: sparse, so it costs no disk
  writeFileSync(join(dir, 'data.bin'), '');
  truncateSync(join(dir, 'data.bin'), BIG);
});
afterAll(() => removeDir(dir));

/** The peak resident memory (VmHWM, kB) a fresh process reaches hashing `dir`, less what it had before. */
async function peakGrowthKb(): Promise<number> {
  const script = `
    import { readFileSync } from 'node:fs';
    import { hashTree } from ${JSON.stringify(SRC)};
    const hwm = () => Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
    const before = hwm();
    hashTree(${JSON.stringify(dir)});
    console.log(hwm() - before);`;
  const p = Bun.spawn([process.execPath, '-e', script], { stdout: 'pipe', stderr: 'inherit' });
  const out = await new Response(p.stdout).text();
  await p.exited;
  return Number(out.trim());
}

// the work directories of every node are hashed when it ends; a node's large data file must not
// be read into memory whole, or a few parallel nodes with a data set each take all of it
test('hashing a work directory with a 1 GiB file holds only a small buffer of it', async () => {
  expect(await peakGrowthKb()).toBeLessThan(128 * 1024);
}, 60_000);

test('a file is hashed as a whole, across reads', () => {
  const bytes = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
  writeFileSync(join(dir, 'mid.bin'), bytes);
  expect(hashTree(dir).get('mid.bin')).toBe(createHash('sha256').update(bytes).digest('hex'));
});
