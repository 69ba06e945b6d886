import { join } from 'node:path';
import type { Env } from '../core/config/env-vars.ts';
import { oneLine } from '../core/errors.ts';
import { readJsonObject } from '../core/json-object.ts';
import { promoteBundle, type PublishRecord } from './publish.ts';
import { loadPublishConfig } from './publish-config.ts';
import { PUBLISH_RECORD_FILE } from './status.ts';

/** The lowest reproducibility (ORS) score that counts as a pass for auto_promote. */
export const AUTO_PROMOTE_MIN_SCORE = 0.5;

/**
 * Whether publish.yaml makes a failed publish fail the pipeline (`required: true`). A publish.yaml
 * that cannot be read is taken as required: the publish it configures failed, and so must the run.
 */
export function publishRequired(checkpointDir: string): boolean {
  try {
    return loadPublishConfig(checkpointDir)?.required === true;
  } catch {
    return true;
  }
}

/**
 * Whether a reproducibility grade (grade_with_judge's result, ors_grade.json) passes: a score of at
 * least AUTO_PROMOTE_MIN_SCORE, not degraded, and a negative control that did not fail. The reason
 * names what fell short.
 */
export function reproducibilityVerdict(grade: unknown): { passed: boolean; reason: string } {
  if (grade === null || typeof grade !== 'object' || Array.isArray(grade)) return { passed: false, reason: 'the reproducibility grade is not an object' };
  const g = grade as { ors_score?: unknown; degraded?: unknown; degraded_reason?: unknown; negative_control?: { passed?: unknown } };
  if (typeof g.ors_score !== 'number' || !Number.isFinite(g.ors_score)) return { passed: false, reason: 'the reproducibility grade has no ors_score' };
  if (g.degraded === true) return { passed: false, reason: `the reproducibility grade is degraded${typeof g.degraded_reason === 'string' ? ` (${g.degraded_reason})` : ''}` };
  if (g.negative_control?.passed === false) return { passed: false, reason: 'the negative control of the reproducibility check failed' };
  if (g.ors_score < AUTO_PROMOTE_MIN_SCORE) return { passed: false, reason: `ors_score ${g.ors_score} is below ${AUTO_PROMOTE_MIN_SCORE}` };
  return { passed: true, reason: `ors_score ${g.ors_score}` };
}

export type AutoPromotion = { promoted: PublishRecord } | { skipped: string } | { failed: string };

/**
 * auto_promote: after the reproducibility check, a staged bundle whose publish.yaml sets
 * auto_promote is promoted to public when the check passed. Every other case says why nothing
 * was done; a promotion the backend refuses is recorded in publish_record.json and reported.
 */
export async function autoPromote(checkpointDir: string, grade: unknown, env: Env): Promise<AutoPromotion> {
  let autoPromoteOn: boolean;
  try {
    autoPromoteOn = loadPublishConfig(checkpointDir)?.auto_promote === true;
  } catch (err) {
    return { skipped: `publish.yaml cannot be read: ${oneLine(err)}` };
  }
  if (!autoPromoteOn) return { skipped: 'publish.yaml does not set auto_promote' };
  let record: PublishRecord | null;
  try {
    record = readJsonObject(join(checkpointDir, PUBLISH_RECORD_FILE), 'publish the bundle again') as PublishRecord | null;
  } catch (err) {
    return { skipped: oneLine(err) };
  }
  if (!record) return { skipped: 'nothing was published' };
  if (record.dry_run) return { skipped: 'the publish was a dry run' };
  if (record.visibility !== 'staged') return { skipped: `the bundle is ${record.visibility}, not staged` };
  const verdict = reproducibilityVerdict(grade);
  if (!verdict.passed) return { skipped: `the reproducibility check did not pass: ${verdict.reason}` };
  try {
    return { promoted: await promoteBundle(checkpointDir, 'public', env) };
  } catch (err) {
    return { failed: oneLine(err) };
  }
}
