// grade_with_judge on 200 leaves with n_runs 3 (600 judge calls) against a scripted judge whose
// every call takes CALL_MS, at max_concurrency 8 against one call after another (limit 1). Target:
// the concurrent grade at least 8x faster (8x is the ideal at a limit of 8: what is left is the
// overhead per call). The judge's 1 s per call is scaled down to CALL_MS (100 ms by default), so
// that the run takes seconds, not minutes (BENCH_GRADE_CALL_MS=1000 runs the judge of the target,
// about 2 minutes with BENCH_GRADE_SUBSET=8); the smaller the wait, the more the overhead per call counts.
// The sequential grade of all 200 leaves would still take a minute: it is measured on a subset of
// SUBSET leaves and scaled to 200 (the time is linear in the calls, one after another). Negative
// controls are skipped, so the calls are exactly leaves x runs in both.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkArguments } from '../../src/mcp/arguments.ts';
import type { RubricNode } from '../../src/schema/ors-rubric.ts';
import { gradeWithJudgeTool } from '../../src/skills/paper-re/grade.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { report } from './measure.ts';

const CALL_MS = Number(process.env.BENCH_GRADE_CALL_MS ?? 100);
const LEAVES = 200;
const SUBSET = Number(process.env.BENCH_GRADE_SUBSET ?? 25);
const RUNS = 3;
const LIMIT = 8;
const TARGET = 8;

const dir = tempDir('svc-bench-grade-');
const ckpt = join(dir, 'checkpoint');
mkdirSync(join(ckpt, 'repro_sandbox'), { recursive: true });
writeFileSync(join(ckpt, 'paper.md'), '# A paper\n\nShell sort with geometric gaps needs fewer comparisons than insertion sort.\n');
writeFileSync(join(ckpt, 'repro_sandbox', 'sort.js'), 'let comparisons = 0;\n');
writeFileSync(join(ckpt, 'repro_sandbox', 'reproduce.log'), 'shell sort: 32617 comparisons\n');

const leaf = (i: number): RubricNode => ({ id: `leaf-${i}`, requirements: `Requirement ${i} holds.`, weight: 1 + (i % 3), task_category: 'Code Development', sub_tasks: [] });
function writeRubric(name: string, leaves: number): string {
  const axes = Array.from({ length: 4 }, (_, a) => ({ id: `axis-${a}`, requirements: `axis ${a}`, weight: a + 1, sub_tasks: Array.from({ length: leaves / 4 }, (_, i) => leaf(a * 1000 + i)) }));
  writeFileSync(join(ckpt, name), JSON.stringify({ id: 'root', requirements: 'reproduced', weight: 1, sub_tasks: axes }));
  return name;
}
const full = writeRubric('full.json', LEAVES);
const subset = writeRubric('subset.json', SUBSET);

// the judge in its own process, as a model server is; its answers are counted in the cost trace
const judge = Bun.spawn([process.execPath, join(import.meta.dir, 'grade-judge-server.ts'), String(CALL_MS)], { stdout: 'pipe', stderr: 'inherit' });
const url = (await firstLine(judge.stdout)).trim();
const env = { PATH: process.env.PATH, HOME: dir, SVC_CHECKPOINT_DIR: ckpt, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${url}/v1`, SVC_MODEL_JUDGE: 'scripted-judge', SVC_LLM_MAX_RETRIES: '0' };
const answered = () => (Bun.file(join(ckpt, 'cost_trace.jsonl')).size ? readFileSync(join(ckpt, 'cost_trace.jsonl'), 'utf8').split('\n').filter(Boolean).length : 0);

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  let text = '';
  while (!text.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return text.split('\n')[0] ?? '';
}

async function grade(rubric: string, limit: number): Promise<number> {
  const before = answered();
  const args = checkArguments(gradeWithJudgeTool.params, 'grade_with_judge', { rubric_path: rubric, repo_dir: 'repro_sandbox', paper_path: 'paper.md', n_runs: RUNS, skip_negative_control: true, max_concurrency: limit });
  const t0 = performance.now();
  const r = (await gradeWithJudgeTool.run(args, { signal: new AbortController().signal, env })) as { ors_score: number; leaves_total: number };
  const ms = performance.now() - t0;
  const calls = answered() - before;
  if (r.ors_score !== 1 || calls !== r.leaves_total * RUNS) throw new Error(`grade of ${rubric}: ors_score ${r.ors_score}, ${calls} calls for ${r.leaves_total} leaves`);
  return ms;
}

// warm the model client and the server
await grade(subset, LIMIT);
const concurrent = await grade(full, LIMIT);
const sequentialSubset = await grade(subset, 1);
const sequential = (sequentialSubset * LEAVES) / SUBSET;
judge.kill();
removeDir(dir);

const ratio = sequential / concurrent;
console.log(`${LEAVES} leaves x ${RUNS} runs = ${LEAVES * RUNS} judge calls of ${CALL_MS} ms${CALL_MS < 1000 ? ' (the 1 s judge scaled down: the overhead per call weighs more)' : ''}; negative controls skipped`);
console.log(`one after another measured on ${SUBSET} leaves (${sequentialSubset.toFixed(0)} ms) and scaled to ${LEAVES}`);
report(`one after another, limit 1 (baseline, scaled)`, sequential, sequential);
report(`concurrent, limit ${LIMIT}`, concurrent, sequential, Math.round(sequential / TARGET));
console.log(`speedup at limit ${LIMIT}: ${ratio.toFixed(2)}x (target at least ${TARGET}x, the ideal at this limit): ${ratio >= TARGET ? 'met' : 'MISSED'}`);
