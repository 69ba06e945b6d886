// One contender for a checkpoint's run claim: `bun claim-child.ts <dir> <start epoch ms> [link]`
// (link: the claim made where flock does not work). Waits
// until the start time, so contenders race, claims, prints ok or conflict, and holds the claim
// until its standard input closes: however late a contender starts, the winner still holds it.
import { claimByLink, claimPid } from '../../src/core/checkpoint/pid.ts';

const [dir, start, how] = process.argv.slice(2) as [string, string, string?];
while (Date.now() < Number(start)) await Bun.sleep(1);
try {
  (how === 'link' ? claimByLink : claimPid)(dir);
  console.log('ok');
} catch (err) {
  console.log(`conflict: ${(err as Error).message}`);
}
for await (const _ of Bun.stdin.stream()) {
  // held until the parent closes our input
}
