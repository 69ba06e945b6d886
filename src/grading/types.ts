/** The types the grade (grade.ts) and the judge (judge.ts) share: each imports them from here, not from the other. */

/** How the run of reproduce.sh that left reproduce.log ended, as run_reproduce records it. */
export type { RunOutcome } from '../reproduce/run-reproduce.ts';

/**
 * One run's grade of one leaf: the judge's score, or the error that failed the leaf (score 0).
 * evidence is what the judge named that it was shown (a file of the submission, or text of its
 * log); evidence_unverified the rest, kept apart and without effect on the score.
 */
export type LeafVerdict = { score: 0 | 1; explanation: string; evidence: string[]; evidence_unverified: string[]; judge_error?: string };

/**
 * What of the paper and the submission every leaf's request shows, rendered once for all of them;
 * paths and logText are what the judge's evidence is checked against: the submission's files and its log.
 */
export type JudgeContext = { stance: string; paper: string; files: string; log: string; paths: string[]; logText: string };
