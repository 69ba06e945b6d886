import type { FigureEntry } from '../schema/figures-manifest.ts';
import type { ScienceData } from '../schema/science-data.ts';
import { escapeLatex } from './latex-text.ts';

export const RESULTS_LABEL = 'tab:results';

/**
 * The results table, made from science_data.json alone: a row per measured configuration, a
 * column per metric (the primary one first), every cell a claim anchor that fillClaims fills, so
 * no number of it can come from anywhere else.
 */
export function resultsTable(data: ScienceData): string {
  const primary = data.primary_metric.name;
  const others = [...new Set(data.configurations.flatMap((c) => Object.keys(c.metrics)))].filter((m) => m !== primary).sort();
  const metrics = [primary, ...others].filter((m) => data.configurations.some((c) => Object.hasOwn(data.values, `${c.node_id}.${m}`)));
  const cell = (node: string, m: string) => (Object.hasOwn(data.values, `${node}.${m}`) ? `\\svcclaim{${node}.${m}}` : '--');
  const rows = data.configurations.map((c) => {
    const name = escapeLatex(c.name);
    const shown = c.node_id === data.best?.node_id ? `\\textbf{${name}}` : name;
    return `${shown} & ${metrics.map((m) => cell(c.node_id, m)).join(' & ')} \\\\`;
  });
  const better = data.primary_metric.higher_is_better ? 'higher' : 'lower';
  return [
    '\\begin{table}[htbp]',
    '  \\centering',
    '  \\small',
    `  \\caption{Every measured configuration: ${escapeLatex(primary)} (${better} is better; the best in bold) and the other measurements.}`,
    `  \\label{${RESULTS_LABEL}}`,
    // a caption above its table needs the space below it that LaTeX gives only above
    '  \\smallskip',
    `  \\begin{tabular}{l${'r'.repeat(metrics.length)}}`,
    '    \\toprule',
    `    Configuration & ${metrics.map(escapeLatex).join(' & ')} \\\\`,
    '    \\midrule',
    ...rows.map((r) => `    ${r}`),
    '    \\bottomrule',
    '  \\end{tabular}',
    '\\end{table}',
    '',
  ].join('\n');
}

const CAPTION_NUMBER = /(?<![\w.\\{])(-?)(\d+(?:\.\d+)?)(\\%)?/g;

/**
 * A figure's LaTeX with the numbers of its caption as claim anchors: each number that is, as
 * printed, a value the figure shows (its manifest `source`) or the count of configurations becomes
 * `\svcclaim{<key>}`. The caption was written from those values, rounded; the anchor prints the
 * value itself. Numbers that are settings stay as they are.
 */
export function anchoredFigure(snippet: string, figure: FigureEntry, data: ScienceData): string {
  const keys = [...Object.keys(figure.source), 'count.configurations'].filter((k) => Object.hasOwn(data.values, k));
  return snippet.replace(/\\caption\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}/, (_, caption: string) => {
    const anchored = caption.replace(CAPTION_NUMBER, (m, minus: string, digits: string, percent: string | undefined) => {
      const printed = Number(`${minus}${digits}`);
      const decimals = digits.split('.')[1]?.length ?? 0;
      const key = keys.find((k) => k.endsWith('.percent') === Boolean(percent) && Number((data.values[k]?.value ?? Number.NaN).toFixed(decimals)) === printed);
      return key ? `\\svcclaim{${key}}` : m;
    });
    return `\\caption{${anchored}}`;
  });
}
