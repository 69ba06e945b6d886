// A process sharing a benchmark job store with a test: `bun bench-jobs-child.ts <mode> <root> <paper ids,> [record file] [jobs]`.
// hold: runs one job at a time, enters stage reproduce_run, prints `running <job_id>` and never
// ends it (the test kills this process). drain: prints `ready`, then runs every queued job it can
// claim (no limit that matters, so two drains race for each job as it comes), appending
// `<job_id> <pid>` to the record file for each run, and exits once the store holds `jobs` jobs, all ended.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { PaperRegistry } from '../../src/bench/registry.ts';
import { openQueue, results } from './bench-jobs.ts';

// the test has imported the papers into the registry the queue shares
const [mode, root, , record, total] = process.argv.slice(2) as [string, string, string, string?, string?];
const papers = PaperRegistry.open(join(root, 'registry'));

if (mode === 'hold') {
  openQueue(root, papers, async (job, ctx) => {
    ctx.stage('reproduce_build');
    ctx.stage('reproduce_run');
    ctx.log('info', 'reproduce.sh is running');
    console.log(`running ${job.job_id}`);
    return new Promise(() => {});
  }, { maxRunning: 1 }).start();
} else {
  const queue = openQueue(root, papers, async (job) => {
    appendFileSync(record!, `${job.job_id} ${process.pid}\n`);
    await Bun.sleep(20 + Math.random() * 40);
    return results(job.paper.paper_id, job.runDir, 0);
  }, { maxRunning: 64, pollMs: 10 }).start();
  console.log('ready');
  const all = () => queue.list().length === Number(total) && queue.list().every((j) => j.status === 'completed' || j.status === 'failed');
  while (!all()) await Bun.sleep(20);
  await queue.stop();
  console.log('drained');
}
