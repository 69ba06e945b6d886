// One contender for a checkpoint's run claim: `bun claim-child.ts <dir> <start epoch ms>`. Waits
// until the start time, so contenders race, claims, prints ok or conflict, and holds the claim a while.
import { claimPid } from '../../src/core/checkpoint/pid.ts';

const [dir, start] = process.argv.slice(2) as [string, string];
while (Date.now() < Number(start)) await Bun.sleep(1);
try {
  claimPid(dir);
  console.log('ok');
} catch (err) {
  console.log(`conflict: ${(err as Error).message}`);
}
await Bun.sleep(1500);
