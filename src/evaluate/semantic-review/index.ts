import { join } from 'node:path';
import { writeJsonAtomic } from '../../core/atomic.ts';
import { readTextHashed } from '../../core/file-hash.ts';
import { InputError, LimitReachedError, oneLine, TooLargeError, UnavailableError } from '../../core/errors.ts';
import { statOrNull } from '../../core/paths.ts';
import type { ModelClient } from '../../llm/client.ts';
import { ModelAnswerError } from '../../llm/errors.ts';
import { MAX_TEX_BYTES } from '../../paper/tex-text.ts';
import { SCIENCE_DATA_FILE } from '../../science/build.ts';
import { readScienceDataFile } from '../../science/read.ts';
import { readMetricContract } from '../metric-contract.ts';
import type { Tolerance } from '../claim-gate/policy.ts';
import { answerProblem, type DroppedFinding, defaultTolerance, type Finding, groundFindings, issueLine, numberMasker, type SemanticAnswer, VERDICTS, type Verdict } from './answer.ts';
import { claimSentences } from './claims.ts';
import { semanticReviewPrompt } from './prompt.ts';

export const SEMANTIC_PHASES = ['draft', 'post_refine'] as const;
export type SemanticPhase = (typeof SEMANTIC_PHASES)[number];

/** Claims one review reads at most: the prompt stays within what a model reads with care. */
export const MAX_CLAIMS = 60;

/** The record of a phase, relative to the checkpoint: the draft's, and the refined paper's beside it. */
export function semanticReviewFile(phase: SemanticPhase): string {
  return join('evaluation', phase === 'draft' ? 'evidence_grounded_semantic_review.json' : 'evidence_grounded_semantic_review_post_refine.json');
}

export type SemanticStatus = 'ok' | 'unavailable' | 'failed';

export type SemanticReviewRecord = {
  phase: SemanticPhase;
  tex_path: string;
  tex_sha256: string;
  model: string | null;
  status: SemanticStatus;
  /** why there are no findings: the model missing, not answering, or answering unusably */
  reason?: string;
  claims_total: number;
  claims_reviewed: number;
  claims_left_out: number;
  findings: Finding[];
  /** findings the model gave that name no known key or no reviewed sentence: not counted, not acted on */
  dropped_findings: DroppedFinding[];
  counts: Record<Verdict, number>;
  /** the overstated and unsupported claims as paper_refine reads points: "[section] issue (claim anchor key) — suggestion" */
  issues: string[];
  summary: string;
  notes: string[];
  metric_contract: boolean;
  reviewed_at: string;
};

export type SemanticReviewJob = {
  checkpointDir: string;
  /** the paper's .tex, already checked to lie inside the checkpoint */
  texPath: string;
  phase: SemanticPhase;
  /** the eval model's client; called inside the review, so a model that cannot be set up is recorded, not thrown */
  connect: () => Pick<ModelClient, 'choice' | 'unavailable' | 'completeJson'>;
  nodeId?: string | null;
  signal?: AbortSignal;
  /** the claim gate's tolerance a number of the model's text must be within of a science-data value to stay; the bundled workflow's when left out */
  tolerance?: Tolerance;
};

/**
 * The evidence-grounded semantic review of a paper: every sentence with a claim anchor, with the
 * measured values it names, read by the eval model for wording the evidence does not support.
 * Bad input (no paper, no science data) throws; what the model does or fails to do never does:
 * a missing or unreachable model, or an answer unusable after one correction, is the record's
 * status and reason, so the pipeline goes on. The record is written whole, and returned.
 */
export async function semanticReview(job: SemanticReviewJob): Promise<{ record: SemanticReviewRecord; path: string }> {
  const size = statOrNull(job.texPath)?.size ?? 0;
  if (size > MAX_TEX_BYTES) throw new TooLargeError(`tex_path ${job.texPath} is over ${MAX_TEX_BYTES} bytes`, 'give the paper source, not a generated file');
  const { text: tex, sha256 } = readTextHashed(job.texPath);
  const data = readScienceDataFile(join(job.checkpointDir, SCIENCE_DATA_FILE));
  const contract = readMetricContract(job.checkpointDir);
  const paper = claimSentences(tex, data);
  const reviewed = paper.claims.slice(0, MAX_CLAIMS);
  const leftOut = paper.claims.length - reviewed.length;
  const notes = [
    ...(leftOut > 0 ? [`${leftOut} of ${paper.claims.length} claim sentences were left out: one review reads the first ${MAX_CLAIMS}`] : []),
    ...(paper.unknownKeys.length ? [`anchors naming keys science_data.json lacks were not reviewed (the claim gate reports them): ${paper.unknownKeys.join(', ')}`] : []),
    ...(paper.inTables ? [`${paper.inTables} anchor${paper.inTables > 1 ? 's' : ''} in tables not reviewed: a table cell has no wording to weigh`] : []),
  ];
  const record: SemanticReviewRecord = {
    phase: job.phase,
    tex_path: job.texPath,
    tex_sha256: sha256,
    model: null,
    status: 'ok',
    claims_total: paper.claims.length,
    claims_reviewed: reviewed.length,
    claims_left_out: leftOut,
    findings: [],
    dropped_findings: [],
    counts: { supported: 0, overstated: 0, unsupported: 0 },
    issues: [],
    summary: reviewed.length ? '' : 'The paper has no sentence with a claim anchor of a known key: nothing to review.',
    notes,
    metric_contract: contract !== null,
    reviewed_at: '',
  };
  if (reviewed.length) {
    const asked = await ask(job, semanticReviewPrompt(data, contract, reviewed, leftOut), record);
    if (asked) {
      const tol = job.tolerance ?? defaultTolerance();
      const { findings, dropped } = groundFindings(asked.findings, reviewed, data, tol);
      for (const f of findings) record.counts[f.verdict]++;
      Object.assign(record, { findings, dropped_findings: dropped, issues: findings.filter((f) => f.verdict !== 'supported').map(issueLine), summary: numberMasker(data, tol)(asked.summary.trim()) });
    }
  }
  record.reviewed_at = new Date().toISOString();
  const path = join(job.checkpointDir, semanticReviewFile(job.phase));
  writeJsonAtomic(path, record);
  return { record, path };
}

/** The model's answer, or null with the record's status and reason set. Only a caller's abort is thrown. */
async function ask(job: SemanticReviewJob, system: string, record: SemanticReviewRecord): Promise<SemanticAnswer | null> {
  try {
    const client = job.connect();
    const why = client.unavailable('eval');
    if (why !== null) return fail(record, 'unavailable', `no eval model: ${why}`);
    record.model = client.choice('eval').model;
    return await client.completeJson<SemanticAnswer>(
      {
        role: 'eval',
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: `Review the claims (${VERDICTS.join(', ')}). Answer with the JSON object only.` },
        ],
        meta: { phase: 'paper', skill: 'evaluator-skill', component: 'evaluator', op: 'semantic_review', ...(job.nodeId ? { node_id: job.nodeId } : {}) },
        ...(job.signal ? { signal: job.signal } : {}),
      },
      answerProblem,
      // one correction, told what was wrong; then the failure is the record's
      { retries: 1 },
    );
  } catch (err) {
    if (job.signal?.aborted) throw err;
    return fail(record, err instanceof ModelAnswerError ? 'failed' : unreachable(err) ? 'unavailable' : 'failed', oneLine(err));
  }
}

/** A model that cannot be called at all: none set, no key, not listening, out of budget. */
function unreachable(err: unknown): boolean {
  return err instanceof UnavailableError || err instanceof InputError || err instanceof LimitReachedError;
}

function fail(record: SemanticReviewRecord, status: Exclude<SemanticStatus, 'ok'>, reason: string): null {
  record.status = status;
  record.reason = reason.replace(/\s+/g, ' ').trim();
  return null;
}
