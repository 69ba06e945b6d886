// What the Benchmark page's tests serve: a paper registry with papers in it, an active checkpoint
// (uploads go into it), the local arXiv server, and the scripted researcher as every model, so a
// job runs its three stages for real on the local sandbox.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type ArxivServer, startArxivServer } from '../support/arxiv-server.ts';
import { paperRegistry } from '../support/bench-jobs.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { type ModelServer, startModelServer } from '../support/model-server.ts';
import { paperPdf } from '../support/paper-pdf.ts';
import { promptName } from '../support/scripted-request.ts';
import { researcherReply, type OpenAIChatRequest } from '../support/scripted-researcher.ts';
import { seedBundle } from '../support/shell-sort-bundle.ts';
import { PaperRegistry } from '../../src/bench/registry.ts';

/** The papers of the generated registry: two with a PDF (cc-by-4.0), one a DOI without. */
export const PAPERS = { withPdf: ['alpha-2024', 'beta-2025'], withoutPdf: ['gamma-doi'] } as const;

/** The paper a job is run on: the demo's Shell-sort paper as a real PDF, as the worker reads it. */
export const SHELL_SORT = 'shell-sort';

export type BenchServices = {
  arxiv: ArxivServer;
  model: ModelServer;
  env: Record<string, string>;
  /** lets the judge answer: until then a job waits in its grade stage */
  releaseJudge: () => void;
  stop: () => void;
};

/**
 * The local arXiv server and the scripted model server, and the environment that points viz at
 * them and at `<root>/registry`. `holdJudge`: the judge answers only once released, so a test sees
 * a job running with the lines of its first stages logged; `silent`: the model never answers, so a
 * job stays running in its first stage.
 */
export function benchServices(root: string, { holdJudge = false, silent = false } = {}): BenchServices {
  const arxiv = startArxivServer();
  let releaseJudge = () => {};
  const judgeMay = holdJudge ? new Promise<void>((resolve) => (releaseJudge = resolve)) : Promise.resolve();
  const model = startModelServer([], {
    respond: async (b) => {
      if (silent) return { text: '{}', delayMs: 120_000 };
      const body = b as OpenAIChatRequest;
      const prompt = promptName(body) ?? '';
      // the rubric stage comes first in a job and its run directory exists by then: the agent finds the paper's code there
      if (prompt.startsWith('replicate/rubric')) seedShellSortRuns(join(root, 'registry'));
      if (prompt === 'grading/judge_leaf') await judgeMay;
      return researcherReply(body);
    },
  });
  const env = {
    SVC_PAPER_REGISTRY_DIR: join(root, 'registry'),
    SVC_ARXIV_API_BASE: arxiv.url,
    SVC_BACKEND: 'openai-compatible',
    LLM_API_BASE: `${model.url}/v1`,
    SVC_MODEL: 'scripted-researcher',
    SVC_MODEL_RUBRIC_GEN: 'rubric-model',
    SVC_MODEL_RUBRIC_AUDIT: 'audit-model',
    SVC_MODEL_REPLICATE: 'replicator-model',
    SVC_MODEL_JUDGE: 'judge-model',
    SVC_LLM_MAX_RETRIES: '0',
  };
  return { arxiv, model, env, releaseJudge: () => releaseJudge(), stop: () => (arxiv.stop(), model.stop()) };
}

/** The registry at `<root>/registry`: the generated papers, and with `shellSort` the demo paper as a real PDF. */
export async function fillRegistry(root: string, { shellSort = false } = {}): Promise<void> {
  await paperRegistry(root, [...PAPERS.withPdf], [...PAPERS.withoutPdf]);
  if (!shellSort) return;
  const dir = join(root, 'shell-sort-tex');
  mkdirSync(dir, { recursive: true });
  const pdf = paperPdf(dir);
  await PaperRegistry.open(join(root, 'registry')).import({ source_type: 'local', source: pdf, title: 'Fewer comparisons with geometric Shell sort', license: 'cc-by-4.0', paper_id: SHELL_SORT, pdf_path: pdf }, {});
}

/** Each run of the Shell-sort paper without its code gets it. */
function seedShellSortRuns(registry: string): void {
  const runs = join(registry, 'papers', SHELL_SORT, 'runs');
  if (!existsSync(runs)) return;
  for (const job of readdirSync(runs)) if (!existsSync(join(runs, job, 'repro_sandbox', 'README.md'))) seedBundle(join(runs, job, 'repro_sandbox'));
}

/** One checkpoint, the active one: an upload goes into its uploads/. */
export const fillCheckpoints = (checkpoints: string) => void writeCheckpoint(checkpoints, { runId: '20261101120000_bench_uploads', nodes: 2 });
