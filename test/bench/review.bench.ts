// review_compiled_paper through the paper skill's server with an ensemble of 5 reviewers against
// one reviewer, on the same compiled paper, the same rubric and the same reflection rounds, with a
// scripted model server that takes 1 s per call; the two alternate within a round, measured in the
// same run. Target: the ensemble at most 1.5x one review. Each reviewer's chain (its review, then
// its reflections) runs beside the others', and the area chair's meta review is asked as soon as
// every first review is in, beside the reflections; the scripted reviewers are done after one
// reflection that leaves their review as it was, so that answer stands: 2 calls deep, as one
// reviewer is. For reading the figure, the same pair again with reviewers who revise their review
// on reflection (no target): the early meta review is dropped and the area chair asked again with
// the final reviews, 3 calls deep against 2.
import { join } from 'node:path';
import { listSkills } from '../../src/core/config/skills.ts';
import { bundledWorkflow } from '../../src/core/config/workflow.ts';
import { SkillPool } from '../../src/mcp/pool.ts';
import { startModelServer } from '../support/model-server.ts';
import { writePaper } from '../support/paper.ts';
import { researcherReply } from '../support/scripted-researcher.ts';
import { paperReflectionReply } from '../support/scripted-review.ts';
import { type OpenAIChatRequest, promptName } from '../support/scripted-request.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';
import { median, report } from './measure.ts';

const CALL_MS = 1000;
const ROUNDS = Number(process.env.BENCH_REVIEW_ROUNDS ?? 3);
const REFLECTIONS = 2;
const ENSEMBLE = 5;
const TARGET = 1.5;

const dir = tempDir('svc-bench-review-');
const ckpt = join(dir, 'checkpoint');
const body = Array.from({ length: 4 }, (_, i) => `\\section{Part ${i + 1}}\nShell sort \\cite{knuth1998} with a geometric gap ratio. ${'Fewer comparisons than insertion sort on a pseudo-random array. '.repeat(30)}`).join('\n');
writePaper(join(ckpt, 'paper'), 'neurips', { body });

/** Whether the reviewers revise their review on reflection (the second pair of figures). */
let revising = false;
function reply(body: OpenAIChatRequest) {
  if (!revising || promptName(body) !== 'paper/reviewer_reflection') return researcherReply(body);
  const r = JSON.parse(paperReflectionReply(body)) as Record<string, unknown>;
  return { text: JSON.stringify(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && k !== 'decision' ? `${v} On reflection, the claims hold.` : v]))) };
}
const server = startModelServer([], { respond: (b) => ({ ...reply(b as OpenAIChatRequest), delayMs: CALL_MS }) });
const chats = () => server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: dir,
  SVC_ROOT: dir,
  SVC_CHECKPOINT_DIR: ckpt,
  SVC_BACKEND: 'openai-compatible',
  LLM_API_BASE: `${server.url}/v1`,
  SVC_MODEL: 'scripted-reviewer',
};
const pool = new SkillPool({ skills: listSkills(bundledWorkflow(), dir), env, program: SVC });
const compiled = await pool.call('compile_paper', { tex_dir: 'paper' }, { skill: 'paper-skill' });
if ('error' in compiled) throw new Error(`compile_paper: ${compiled.error}`);

/** One review of the compiled paper by `reviewers`; its wall time and the prompts it sent. */
async function review(reviewers: number): Promise<{ ms: number; prompts: (string | null)[] }> {
  const before = chats().length;
  const t0 = performance.now();
  const out = await pool.call('review_compiled_paper', { pdf_path: 'paper/main.pdf', rubric_id: 'neurips', num_reflections: REFLECTIONS, num_reviews_ensemble: reviewers }, { skill: 'paper-skill' });
  const ms = performance.now() - t0;
  if ('error' in out) throw new Error(`review_compiled_paper (${reviewers}): ${out.error}`);
  if ((out.result as { n?: number }).n !== reviewers) throw new Error(`review_compiled_paper (${reviewers}) reports n = ${(out.result as { n?: number }).n}`);
  return { ms, prompts: chats().slice(before).map((r) => promptName(r.body as never)) };
}

/** One reviewer and the ensemble, alternating which goes first; the medians and the calls each made. */
async function pair(): Promise<{ one: number; ensemble: number; calls: { one: number; ensemble: number } }> {
  const ones: number[] = [];
  const ensembles: number[] = [];
  const calls = { one: 0, ensemble: 0 };
  for (let i = 0; i < ROUNDS; i++) {
    for (const n of i % 2 === 0 ? [1, ENSEMBLE] : [ENSEMBLE, 1]) {
      const r = await review(n);
      (n === 1 ? ones : ensembles).push(r.ms);
      calls[n === 1 ? 'one' : 'ensemble'] = r.prompts.length;
    }
  }
  return { one: median(ones), ensemble: median(ensembles), calls };
}

// start the skill server and warm pdftotext and the page cache
await review(1);
const done = await pair();
revising = true;
const revised = await pair();
await pool.close();
server.stop();
removeDir(dir);

const ratio = done.ensemble / done.one;
console.log(`${ROUNDS} reviews each, ${REFLECTIONS} reflection rounds allowed, model calls of ${CALL_MS} ms, median`);
console.log(`reviewers done after one reflection: ${done.calls.one} calls for one reviewer, ${done.calls.ensemble} for ${ENSEMBLE}`);
report('one reviewer (baseline)', done.one, done.one);
report(`an ensemble of ${ENSEMBLE} and the meta review`, done.ensemble, done.one, Math.round(TARGET * done.one));
console.log(`reviewers who revise on reflection: ${revised.calls.one} calls for one reviewer, ${revised.calls.ensemble} for ${ENSEMBLE} (the meta review asked again)`);
report('one reviewer, revising (baseline)', revised.one, revised.one);
report(`an ensemble of ${ENSEMBLE}, revising`, revised.ensemble, revised.one);
console.log(`ensemble of ${ENSEMBLE} / one review: ${ratio.toFixed(3)}x median (target at most ${TARGET}x): ${ratio <= TARGET ? 'met' : 'MISSED'}; reviewers who revise: ${(revised.ensemble / revised.one).toFixed(3)}x (no target)`);
