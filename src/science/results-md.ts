import type { ScienceConfiguration, ScienceData } from '../schema/science-data.ts';

/**
 * RESULTS.md of an artifact bundle: tables made from science_data.json alone, every number as the
 * file holds it (no rounding, no unit the data does not give), so each one can be found there
 * under its anchor key. The same data always gives the same text.
 */
export function resultsMarkdown(data: ScienceData): string {
  const metric = data.primary_metric.name;
  const byId = new Map(data.configurations.map((c) => [c.node_id, c]));
  const out: string[] = [
    '# Results',
    '',
    `Primary metric: \`${metric}\` (${data.primary_metric.higher_is_better ? 'higher' : 'lower'} is better). Every number below is in \`data/science_data.json\`, read from the \`results.json\` of each configuration (\`data/<node>/results.json\`); a list of trials counts as its mean.`,
    '',
  ];
  const picks = [['best', data.best], ['baseline', data.baseline]] as const;
  if (picks.some(([, p]) => p)) {
    out.push('## Best and baseline', '', `| | configuration | node | ${metric} |`, '|---|---|---|---|');
    for (const [role, p] of picks) if (p) out.push(`| ${role} | ${cell(byId.get(p.node_id)?.name ?? p.node_id)} | \`${p.node_id}\` | ${p.value} |`);
    const ratio = data.values[`improvement.${metric}.ratio`];
    const percent = data.values[`improvement.${metric}.percent`];
    if (ratio) out.push('', `By ${metric}, the best configuration is ${ratio.value} times better than the baseline (\`improvement.${metric}.ratio\`).`);
    if (percent) out.push(`The change from the baseline's ${metric} is ${percent.value} % (\`improvement.${metric}.percent\`).`);
    out.push('');
  }
  const metrics = [...new Set(data.configurations.flatMap((c) => Object.keys(c.metrics)))].sort((a, b) => Number(b === metric) - Number(a === metric) || a.localeCompare(b));
  out.push(`## Configurations (${data.values['count.configurations']?.value ?? data.configurations.length})`, '');
  out.push(`| configuration | node | label | ${metrics.join(' | ')} |`, `|---|---|---|${metrics.map(() => '---').join('|')}|`);
  for (const c of ranked(data.configurations, metric, data.primary_metric.higher_is_better)) {
    out.push(`| ${cell(c.name)} | \`${c.node_id}\` | ${c.label} | ${metrics.map((m) => (c.metrics[m] === undefined ? '-' : String(c.metrics[m]))).join(' | ')} |`);
  }
  const params = [...new Set(data.configurations.flatMap((c) => Object.keys(c.params)))].sort();
  if (params.length > 0) {
    out.push('', '## Settings', '', `| configuration | ${params.join(' | ')} |`, `|---|${params.map(() => '---').join('|')}|`);
    for (const c of data.configurations) out.push(`| ${cell(c.name)} | ${params.map((p) => (c.params[p] === undefined ? '-' : cell(String(c.params[p])))).join(' | ')} |`);
  }
  if (data.notes?.length) out.push('', '## Notes', '', ...data.notes.map((n) => `- ${n}`));
  return `${out.join('\n')}\n`;
}

/** Best first by the primary metric; configurations without it keep their order at the end. */
function ranked(configs: readonly ScienceConfiguration[], metric: string, higherIsBetter: boolean): ScienceConfiguration[] {
  const has = configs.filter((c) => c.metrics[metric] !== undefined);
  const sorted = [...has].sort((a, b) => ((a.metrics[metric] as number) - (b.metrics[metric] as number)) * (higherIsBetter ? -1 : 1));
  return [...sorted, ...configs.filter((c) => c.metrics[metric] === undefined)];
}

/** Text safe in a table cell: no line breaks, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
}
