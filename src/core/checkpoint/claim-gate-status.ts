import { join } from 'node:path';
import { ClaimGateReport } from '../../schema/checkpoint.ts';
import { recordCheckCode } from '../../schema/record-check.ts' with { type: 'macro' };
import { compiledCheck, readRecord } from './records.ts';
import { statOrNull } from '../paths.ts';

const isClaimGateReport = compiledCheck(recordCheckCode('ClaimGateReport'));

/** The claim gate's verdict on a checkpoint, its findings as counts. */
export type ClaimGateStatus = {
  phase: ClaimGateReport['phase'];
  status: ClaimGateReport['status'];
  mode: string;
  should_block: boolean;
  errors: number;
  warnings: number;
};

/** The gate's reports, the final one first: once the paper is final, the draft's verdict is history. */
export const CLAIM_GATE_REPORTS = ['evaluation/claim_evidence_hard_gate_final.json', 'evaluation/claim_evidence_hard_gate_draft.json'] as const;

/**
 * The verdict of the final report, else of the draft's; null when neither exists. A final report
 * that is damaged is a problem and null, not the draft's verdict, which it would pass for.
 */
export function claimGateStatus(dir: string, problems: string[]): ClaimGateStatus | null {
  const name = CLAIM_GATE_REPORTS.find((n) => statOrNull(join(dir, n)) !== null);
  if (!name) return null;
  const r = readRecord(dir, name, ClaimGateReport, problems, isClaimGateReport);
  if (!r) return null;
  return { phase: r.phase, status: r.status, mode: r.policy.mode, should_block: r.should_block, errors: r.errors.length, warnings: r.warnings.length };
}
