import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/core/config/config.ts';
import { gradeSubmission, type OrsGrade } from '../../../src/grading/grade.ts';
import { createModelClient } from '../../../src/llm/client.ts';
import { readRubric, rubricBytes } from '../../../src/replicate/rubric.ts';
import { type ReproduceRecord, runReproduce } from '../../../src/reproduce/run-reproduce.ts';
import type { JobResults, JobSnapshot, ManifestEntry } from '../../../src/schema/bench-api.ts';
import type { RubricMeta, RubricNode } from '../../../src/schema/ors-rubric.ts';
import { startModelServer } from '../../support/model-server.ts';
import { judgeLeafReply } from '../../support/scripted-judge-ors.ts';
import type { OpenAIChatRequest } from '../../support/scripted-request.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { writeDemoSubmission } from '../skills/paper-re/grade-env.ts';
import { PAPER } from '../skills/replicate/replicate-env.ts';

/** Text no format may pass through as markup: HTML, LaTeX and Markdown specials, and a fence. */
export const HOSTILE = '<script>alert("x")</script> \\input{/etc/passwd} 100% & co_op #1 $x$ {a} ~home ^caret [b] ``` end';
/** A log line the scripted judge quotes as evidence (it names comparisons and a number). */
export const HOSTILE_LOG = '<script>alert(2)</script> 7 comparisons \\input{/etc/passwd} ````';

const leaf = (id: string, task_category: string, requirements: string, weight = 1): RubricNode => ({ id, requirements, weight, task_category, sub_tasks: [] });

/** The demo paper's rubric, by hand: two Code Development leaves (one hostile), a run leaf, two result leaves (one the run does not show). */
export const RUBRIC: RubricNode = {
  id: 'shell-sort',
  requirements: 'Reproduce the comparison counts of geometric Shell sort.',
  weight: 1,
  sub_tasks: [
    { id: 'code-development', requirements: 'The programs.', weight: 2, sub_tasks: [leaf('code-development/insertion-baseline', 'Code Development', 'Insertion sort, counting every comparison.'), leaf('code-development/hostile', 'Code Development', HOSTILE)] },
    { id: 'code-execution', requirements: 'The run.', weight: 1, sub_tasks: [leaf('code-execution/runs', 'Code Execution', 'reproduce.sh runs every configuration and prints its comparisons.')] },
    {
      id: 'result-analysis',
      requirements: 'The numbers.',
      weight: 1,
      sub_tasks: [leaf('result-analysis/insertion', 'Result Analysis', "Insertion sort's comparisons in the run equal the paper's 1,013,583."), leaf('result-analysis/best', 'Result Analysis', "The best configuration's comparisons equal the paper's 20,573.")],
    },
  ],
};
export const LEAF_IDS = ['code-development/insertion-baseline', 'code-development/hostile', 'code-execution/runs', 'result-analysis/insertion', 'result-analysis/best'];

export type Run = { registry: string; runDir: string; job: JobSnapshot; paper: ManifestEntry; results: JobResults; grade: OrsGrade; env: Record<string, string | undefined>; stop: () => void };

/**
 * A completed job's run directory made by the real stages: the rubric written by hand, the demo
 * submission's reproduce.sh run by run_reproduce (local sandbox), and the run graded by
 * gradeSubmission against the scripted judge, twice per leaf with the negative controls.
 */
export async function completedRun(): Promise<Run> {
  const registry = tempDir('svc-report-');
  const jobId = '0123456789abcdef0123456789abcdef';
  const runDir = join(registry, 'papers', 'shell-sort', 'runs', jobId);
  const sandbox = join(runDir, 'repro_sandbox');
  mkdirSync(runDir, { recursive: true });
  mkdirSync(join(registry, 'home'));
  writeFileSync(join(runDir, 'rubric.json'), rubricBytes(RUBRIC));
  const rubric = readRubric(join(runDir, 'rubric.json'));
  const meta: RubricMeta = { rubric_sha256: rubric.sha256, model: 'rubric-model', temperature: 0, seed: 0, two_stage: true, target_leaf_count: 5, leaf_count: 5, generated_at: '2026-11-28T10:00:00.000Z', paper_sha256: 'f'.repeat(64) };
  writeFileSync(join(runDir, 'rubric.meta.json'), JSON.stringify(meta));
  writeDemoSubmission(sandbox);
  // first in the log, so the judge quotes it as evidence
  const script = join(sandbox, 'reproduce.sh');
  writeFileSync(script, readFileSync(script, 'utf8').replace('set -e\n', `set -e\nprintf '%s\\n' '${HOSTILE_LOG}'\n`));

  const env = { PATH: process.env.PATH, HOME: join(registry, 'home') };
  const record: ReproduceRecord = await runReproduce({
    checkpointDir: runDir,
    repoDir: sandbox,
    rubricPath: join(runDir, 'rubric.json'),
    sandbox: 'local',
    image: null,
    timeoutSec: 120,
    partitionNamed: false,
    slurm: () => Promise.reject(new Error('not a Slurm run')),
    env,
  });

  const server = startModelServer([], { respond: (b) => ({ text: judgeLeafReply(b as OpenAIChatRequest) }) });
  const modelEnv = { ...env, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'judge-model', SVC_MODEL_JUDGE: 'judge-model', SVC_LLM_MAX_RETRIES: '0' };
  const client = createModelClient({ cfg: loadConfig({ cwd: registry, env: modelEnv }), checkpointDir: null, env: modelEnv });
  const grade = await gradeSubmission({ client, judgeModel: 'judge-model', rubric, paperText: PAPER, repoDir: sandbox, nRuns: 2, codeOnly: false, skipNegativeControl: false, maxConcurrency: 4, run: record });
  server.stop();

  const paper: ManifestEntry = {
    paper_id: 'shell-sort',
    title: 'Fewer comparisons with geometric Shell sort',
    authors: ['Ada Lovelace', '山田 太郎'],
    venue: 'Demo Workshop',
    year: 2026,
    source_type: 'local',
    source: '/papers/shell.pdf',
    artifact_url: '',
    license: 'cc-by-4.0',
    license_assessment: { license: 'cc-by-4.0', permissive: true, modifiable: true, redistributable: true, non_commercial: false, usable: true, note: 'permissive license' },
    imported_at: '2026-11-28T09:00:00.000Z',
    registry_dir: join(registry, 'papers', 'shell-sort'),
  };
  const job: JobSnapshot = {
    job_id: jobId,
    paper_id: 'shell-sort',
    status: 'completed',
    current_stage: 'completed',
    progress: 1,
    created_at: '2026-11-28T09:59:00.000Z',
    started_at: '2026-11-28T10:00:00.000Z',
    ended_at: '2026-11-28T10:05:00.000Z',
    configs: { rubric: { two_stage: true }, reproduce: { sandbox_kind: 'local', time_limit_sec: 120 }, judge: { n_runs: 2 } },
    error: null,
    log_count: 12,
  };
  const results: JobResults = {
    paper_id: 'shell-sort',
    run_dir: runDir,
    rubric_path: join(runDir, 'rubric.json'),
    repo_dir: sandbox,
    rubric_manifest: meta,
    rubric: RUBRIC,
    reproduce_build: { skipped: true, reason: 'reproduce.sh was already there', output_dir: sandbox, submission_root: sandbox, reproduce_sh: join(sandbox, 'reproduce.sh') },
    reproduce_run: record,
    grade,
    ors_score: grade.ors_score,
    leaves: grade.leaves_total,
    negative_control: grade.negative_control,
  };
  writeFileSync(join(runDir, 'ors_phase1.json'), JSON.stringify(record));
  writeFileSync(join(runDir, 'ors_grade.json'), JSON.stringify(grade));
  writeFileSync(join(runDir, 'results.json'), JSON.stringify(results));
  return { registry, runDir, job, paper, results, grade, env, stop: () => removeDir(registry) };
}
