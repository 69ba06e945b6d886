import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';

/** The runs of the Results page's workspace: one with every report, and a newer bare one (active at start). */
export const RESULTS = { reported: '20261105100000_reported', bare: '20261106100000_bare' } as const;

/** The text of notes.md in the reported run. */
export const NOTES = '# Notes\n\nGap ratio 2.2 wins.\n';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** Bytes that are not text: a NUL among them. */
export const BINARY = Buffer.from([0x53, 0x56, 0x43, 0x00, 0xff, 0x10, 0x20, 0x30, 0x00, 0x01]);

/** A one-page PDF with a line of text, written by hand (a viewer needs no more). */
const PDF = `%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >> endobj
4 0 obj << /Length 52 >> stream
BT /F1 14 Tf 20 50 Td (Geometric Shell sort) Tj ET
endstream endobj
5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj
trailer << /Root 1 0 R >>
%%EOF
`;

export const PAPER_TEX = String.raw`\documentclass{article}
\title{Fewer comparisons with geometric Shell sort}
\begin{document}
\maketitle
The best configuration needs 32,617 comparisons, 31.1 times fewer than insertion sort.
\end{document}
`;

/** A draft TeX stops on: an undefined command. */
export const BROKEN_TEX = String.raw`\documentclass{article}
\begin{document}
\gapratio{2.2}
\end{document}
`;

export const REVIEW = {
  rubric_id: 'generic_conference',
  rubric_version: '1',
  venue: 'generic',
  scores: { soundness: 3, presentation: 2, contribution: 3, overall: 6 },
  score_dimensions: [
    { name: 'soundness', value: 3, scale: [1, 4] },
    { name: 'presentation', value: 2, scale: [1, 4] },
    { name: 'contribution', value: 3, scale: [1, 4] },
    { name: 'overall', value: 6, scale: [1, 10] },
  ],
  decision: 'weak_accept',
  overall_score: 6,
  score: 6,
  summary: 'The paper **measures** comparisons of Shell sort gap sequences.',
  strengths: '- One program per configuration\n- Exact comparison counts',
  weaknesses: 'Only one array size is measured.',
  issues: ['Table 1 has no units.'],
  n: 2,
  ensemble_reviews: [
    { reviewer: 1, overall_score: 7, score_dimensions: [{ name: 'overall', value: 7, scale: [1, 10] }], summary: 'Reviewer one liked the counts.', reviewer_decision: 'accept' },
    { reviewer: 2, overall_score: 5, score_dimensions: [{ name: 'overall', value: 5, scale: [1, 10] }], summary: 'Reviewer two wants more sizes.', reviewer_decision: 'reject' },
  ],
  pdf_text_snippet: 'Fewer comparisons with geometric Shell sort',
  reviewed_at: '2026-11-05T11:00:00Z',
};

export const LEAVES = [
  { leaf_id: 'code.gaps', requirements: 'The gap sequence with ratio 2.2 is implemented.', task_category: 'Code Development', weight: 2, score: 1, runs: [1, 1, 1], explanation: 'shell.c computes the gaps.', evidence: [], evidence_unverified: [] },
  { leaf_id: 'run.counts', requirements: 'The program prints the comparison count.', task_category: 'Execution', weight: 1, score: 0.67, runs: [1, 1, 0], explanation: 'Two of three runs found the count in the log.', evidence: [], evidence_unverified: [] },
  { leaf_id: 'result.speedup', requirements: 'The 31.1 times reduction is reproduced.', task_category: 'Result Analysis', weight: 1, score: 0, runs: [0, 0, 0], explanation: 'The log shows 29.8 times.', evidence: [], evidence_unverified: [] },
];

export const LINEAGE = [
  {
    ts: 1_793_000_000,
    ts_iso: '2026-10-26T08:53:20Z',
    trigger: 'stagnation_rule',
    executed: true,
    state: { active_idea_title: 'Geometric gaps', active_idea_index: 0, nodes_explored: 6, budget_remaining: 14 },
    decision: { action: 'switch_to_idea', target_idea_index: 1, disable_generate_ideas: true, rationale: 'The last five scores differ by less than 0.05.' },
  },
  {
    ts: 1_793_000_600,
    ts_iso: '2026-10-26T09:03:20Z',
    trigger: 'every_node',
    executed: false,
    state: { active_idea_title: 'Tokuda gaps', active_idea_index: 1, nodes_explored: 9, budget_remaining: 11 },
    decision: { action: 'continue', target_idea_index: null, disable_generate_ideas: false, rationale: 'Scores are still rising.' },
  },
];

const finding = (type: string, message: string, extra: Record<string, unknown> = {}) => ({ type, message, ...extra });

function gateReport(phase: 'draft' | 'final') {
  const final = phase === 'final';
  return {
    gate: 'claim_evidence_hard_gate',
    phase,
    policy: { mode: final ? 'strict' : 'warn' },
    status: final ? 'fail' : 'warn',
    should_block: final,
    ...(final ? { reason: '1 blocking error: numeric_mismatch' } : {}),
    tex_path: final ? 'full_paper_refined.tex' : 'full_paper.tex',
    tex_sha256: null,
    errors: final ? [finding('numeric_mismatch', "the paper states comparisons = 32617; the nodes reported 32671", { key: 'comparisons', claimed: 32617, evidence: [32671], where: 'Results, line 12' })] : [],
    warnings: [finding('uncovered_numeric', `the number 2000 in ${phase === 'final' ? 'Method' : 'Setup'} has no evidence`, { where: 'Method' })],
    metrics: { total_claims: 4, grounded_claims: 3, numeric_claims: 4, required_evidence: 0, numeric_mismatch: final ? 1 : 0, missing_evidence: 0, evidence_values: 12, nodes_with_evidence: 3 },
  };
}

const json = (dir: string, rel: string, value: unknown) => {
  mkdirSync(join(dir, rel, '..'), { recursive: true });
  writeFileSync(join(dir, rel), JSON.stringify(value, null, 2));
};

/** The reported run: paper (source, a broken draft, PDF), review, claim gate, reproducibility, lineage, a figure, bytes and notes. */
export function fillResults(root: string): void {
  const dir = writeCheckpoint(root, { runId: RESULTS.reported, nodes: 4 });
  writeFileSync(join(dir, 'full_paper.tex'), PAPER_TEX);
  writeFileSync(join(dir, 'full_paper.pdf'), PDF);
  mkdirSync(join(dir, 'paper'));
  writeFileSync(join(dir, 'paper', 'broken.tex'), BROKEN_TEX);
  writeFileSync(join(dir, 'notes.md'), NOTES);
  writeFileSync(join(dir, 'fig_speedup.png'), PNG);
  writeFileSync(join(dir, 'data.bin'), BINARY);
  json(dir, 'review_report.json', REVIEW);
  const grade = {
    rubric_sha256: 'ab12',
    ors_score: 0.72,
    raw_score: 0.5567,
    leaf_grades: LEAVES,
    judge_model: 'judge-model-1',
    n_runs: 3,
    run_scores: [0.75, 0.75, 0.7],
    spread: 0.05,
    code_only: false,
    leaves_total: 3,
    leaves_passed: 2,
    negative_control: { empty: 0, boilerplate: 0.1, passed: true, threshold: 0.2 },
    degraded: true,
    degraded_reason: '1 of 3 leaves have no valid judge answer',
  };
  json(dir, 'ors_grade.json', grade);
  // the report is the grade's summary, without the per-leaf detail
  const report = Object.fromEntries(Object.entries(grade).filter(([k]) => k !== 'leaf_grades' && k !== 'run_scores'));
  json(dir, 'reproducibility_report.json', { ...report, run_timed_out: false, graded_at: '2026-11-05T12:00:00Z' });
  json(dir, 'evaluation/claim_evidence_hard_gate_draft.json', gateReport('draft'));
  json(dir, 'evaluation/claim_evidence_hard_gate_final.json', gateReport('final'));
  writeFileSync(join(dir, 'lineage_decisions.jsonl'), `${LINEAGE.map((d) => JSON.stringify(d)).join('\n')}\n`);
  writeCheckpoint(root, { runId: RESULTS.bare, nodes: 2 });
}
