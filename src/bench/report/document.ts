import type { Figure } from './figures.ts';
import type { ReportData } from './harvest.ts';
import type { Labels } from './language.ts';

/**
 * A report as a list of sections of plain-text blocks, laid out once for every format: Markdown,
 * HTML and LaTeX each only escape and typeset it. Every text here is raw; the writers escape it.
 */
export type Block =
  | { kind: 'kv'; rows: [string, string][] }
  | { kind: 'table'; head: string[]; rows: string[][] }
  | { kind: 'figure'; name: Figure['name']; caption: string }
  | { kind: 'code'; caption: string; lines: string[] }
  | { kind: 'para'; text: string }
  | { kind: 'list'; caption: string; items: string[] }
  | { kind: 'subheading'; text: string };
export type Section = { heading: string; blocks: Block[] };
export type ReportDocument = { title: string; sections: Section[] };

const num = (n: number | null | undefined) => (n === null || n === undefined ? '–' : String(n));

export function reportDocument(d: ReportData, t: Labels): ReportDocument {
  const yn = (b: boolean | null) => (b === null ? t.not_decided : b ? t.yes : t.no);
  const g = d.grade;
  const a = d.paper.license_assessment;
  const nc = g.negative_control;
  const configs = (['rubric', 'reproduce', 'judge'] as const).map((k): [string, string] => [k, JSON.stringify(d.job.configs[k] ?? {})]);
  const sections: Section[] = [
    {
      heading: t.paper,
      blocks: [
        { kind: 'kv', rows: [[t.paper_title, d.paper.title], [t.authors, d.paper.authors.join(', ') || t.none], [t.venue, d.paper.venue || t.none], [t.year, num(d.paper.year)], [t.source, `${d.paper.source_type}: ${d.paper.source}`], [t.license, d.paper.license || t.none]] },
        { kind: 'subheading', text: t.license_assessment },
        { kind: 'kv', rows: [[t.permissive, yn(a.permissive)], [t.modifiable, yn(a.modifiable)], [t.redistributable, yn(a.redistributable)], [t.non_commercial, yn(a.non_commercial)], [t.usable, yn(a.usable)], [t.note, a.note || t.none]] },
      ],
    },
    {
      heading: t.job,
      blocks: [
        { kind: 'kv', rows: [[t.job_id, d.job.job_id], [t.status, d.job.status], [t.created_at, d.job.created_at], [t.started_at, d.job.started_at ?? '–'], [t.ended_at, d.job.ended_at ?? '–']] },
        { kind: 'subheading', text: t.configs },
        { kind: 'kv', rows: configs },
      ],
    },
    {
      heading: t.rubric,
      blocks: [
        { kind: 'kv', rows: [[t.rubric_sha256, d.rubricSha256], ...d.rubricMeta] },
        { kind: 'figure', name: 'rubric_tree', caption: t.fig_tree },
        {
          kind: 'table',
          head: [t.node, t.weight, t.category, t.score, t.requirements],
          rows: d.nodes.map((n) => [`${'· '.repeat(n.depth)}${n.node.id}`, num(n.node.weight), n.node.task_category ?? '', n.score === null ? t.not_graded : String(round(n.score)), n.node.requirements]),
        },
      ],
    },
    {
      heading: t.reproduction,
      blocks: [
        { kind: 'kv', rows: [[t.submission_dir, d.sandboxDir], ...(d.run ? ([[t.sandbox, d.run.sandbox_kind], [t.exit_code, num(d.run.exit_code)], [t.timed_out, yn(d.run.timed_out)], [t.wall_time, num(d.run.wall_time_sec)], [t.started_at, d.run.started_at], [t.ended_at, d.run.ended_at], [t.command, d.run.command]] as [string, string][]) : [])] },
        ...(d.run ? [] : [{ kind: 'para', text: d.runError ? `${t.no_run} ${d.runError}` : t.no_run } as Block]),
        ...(d.build.length ? [{ kind: 'subheading', text: t.build } as Block, { kind: 'kv', rows: d.build } as Block] : []),
        d.log ? { kind: 'code', caption: `${t.log_tail} (${d.log.path})`, lines: d.log.lines } : { kind: 'para', text: t.no_log },
      ],
    },
    {
      heading: t.grade,
      blocks: [
        {
          kind: 'kv',
          rows: [
            [t.ors_score, num(g.ors_score)],
            [t.raw_score, num(g.raw_score)],
            [t.leaves_passed, `${g.leaves_passed} / ${g.leaves_total}`],
            [t.judge_model, g.judge_model],
            [t.n_runs, num(g.n_runs)],
            [t.run_scores, g.run_scores.map(num).join(', ') || t.none],
            [t.spread, num(g.spread)],
            [t.degraded, yn(g.degraded)],
            ...(g.degraded_reason ? [[t.degraded_reason, g.degraded_reason] as [string, string]] : []),
            [t.code_only, yn(g.code_only)],
            ...(g.code_only_reason ? [[t.code_only_reason, g.code_only_reason] as [string, string]] : []),
            [t.graded_at, g.graded_at],
          ],
        },
        { kind: 'subheading', text: t.negative_control },
        { kind: 'kv', rows: [[t.control_empty, num(nc.empty)], [t.control_boilerplate, num(nc.boilerplate)], [t.threshold, num(nc.threshold)], [t.control_passed, yn(nc.passed)]] },
        { kind: 'figure', name: 'score_distribution', caption: t.fig_distribution },
      ],
    },
    { heading: t.leaf_grades, blocks: [{ kind: 'figure', name: 'leaf_grades', caption: t.fig_leaves }, ...g.leaf_grades.flatMap(leafBlocks(t))] },
  ];
  return { title: `${t.title}: ${d.paper.title}`, sections };
}

function leafBlocks(t: Labels) {
  return (l: ReportData['grade']['leaf_grades'][number]): Block[] => [
    { kind: 'subheading', text: l.leaf_id },
    { kind: 'kv', rows: [[t.score, num(l.score)], [t.runs, l.runs.map(num).join(', ')], [t.weight, num(l.weight)], [t.category, l.task_category ?? t.none], [t.requirements, l.requirements], ...(l.judge_error ? [[t.judge_error, l.judge_error] as [string, string]] : [])] },
    { kind: 'para', text: `${t.explanation}: ${l.explanation}` },
    { kind: 'list', caption: t.evidence, items: l.evidence.length ? l.evidence : [t.none] },
    ...(l.evidence_unverified?.length ? [{ kind: 'list', caption: t.evidence_unverified, items: l.evidence_unverified } as Block] : []),
  ];
}

/** An inner node's score is a mean computed here: shown to the four decimals the grade keeps. */
const round = (x: number) => Math.round(x * 10_000) / 10_000;
