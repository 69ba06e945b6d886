// What the benchmark job queue is given in tests: the real paper registry, an executor that runs a
// real child process per job, and the real cost model.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { estimateCost, estimateRun } from '../../src/bench/cost.ts';
import { BenchJobs } from '../../src/bench/jobs/queue.ts';
import { JobStore } from '../../src/bench/jobs/store.ts';
import type { JobExecutor, PaperLookup } from '../../src/bench/jobs/types.ts';
import { PaperRegistry } from '../../src/bench/registry.ts';
import type { JobResults, JobStage } from '../../src/schema/bench-api.ts';

/**
 * The real paper registry at `<root>/registry` (where openQueue keeps its store) holding the
 * papers named: those in `withPdf` with a PDF, those in `withoutPdf` as metadata only (a DOI).
 * Papers already there are kept, so a second call on the same root adds only what is missing.
 */
export async function paperRegistry(root: string, withPdf: string[], withoutPdf: string[] = []): Promise<PaperRegistry> {
  const registry = PaperRegistry.open(join(root, 'registry'));
  const pdf = join(root, 'paper.pdf');
  mkdirSync(root, { recursive: true });
  writeFileSync(pdf, '%PDF-1.4\n%%EOF\n');
  for (const id of withPdf) if (!registry.get(id)) await registry.import({ source_type: 'local', source: pdf, title: id, license: 'cc-by-4.0', paper_id: id, pdf_path: pdf }, {});
  for (const id of withoutPdf) if (!registry.get(id)) await registry.import({ source_type: 'doi', source: `10.5555/${id}`, title: id, paper_id: id }, {});
  return registry;
}

/**
 * Runs `argv(job)` in the job's run directory: each stdout line `stage <name>` enters that stage,
 * any other line is logged; a non-zero exit fails the job with the last stderr line. The results
 * name the run directory and the number of lines logged.
 */
export function processExecutor(argv: (paperId: string) => string[]): JobExecutor {
  return async (job, ctx) => {
    mkdirSync(job.runDir, { recursive: true });
    const proc = Bun.spawn(argv(job.paper.paper_id), { cwd: job.runDir, stdout: 'pipe', stderr: 'pipe', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', JOB_ID: job.job_id } });
    const kill = () => proc.kill();
    ctx.signal.addEventListener('abort', kill, { once: true });
    let lines = 0;
    let buf = '';
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout) {
      buf += decoder.decode(chunk, { stream: true });
      for (let cut = buf.indexOf('\n'); cut !== -1; cut = buf.indexOf('\n')) {
        const line = buf.slice(0, cut);
        buf = buf.slice(cut + 1);
        if (line.startsWith('stage ')) ctx.stage(line.slice(6) as JobStage);
        else {
          ctx.log('info', line);
          lines++;
        }
      }
    }
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    ctx.signal.removeEventListener('abort', kill);
    if (code !== 0) throw new Error(stderr.trim().split('\n').pop() || `exit ${code}`);
    return results(job.paper.paper_id, job.runDir, lines);
  };
}

export function results(paperId: string, runDir: string, leaves: number): JobResults {
  return { paper_id: paperId, run_dir: runDir, rubric_path: join(runDir, 'rubric.json'), repo_dir: join(runDir, 'submission'), rubric_manifest: null, rubric: null, reproduce_build: null, reproduce_run: null, grade: null, ors_score: 0.5, leaves, negative_control: null };
}

/** A queue over `<root>/registry` (not started). */
export function openQueue(root: string, papers: PaperLookup, execute: JobExecutor, opts: { maxRunning?: number; claims?: 'any' | 'own'; pollMs?: number; stopGraceMs?: number } = {}): BenchJobs {
  return new BenchJobs({ store: JobStore.open(join(root, 'registry')), papers, execute, cost: { estimateCost, estimateRun }, env: {}, claims: opts.claims ?? 'any', maxRunning: opts.maxRunning ?? 2, pollMs: opts.pollMs ?? 50, stopGraceMs: opts.stopGraceMs });
}
