import { InputError } from '../../core/errors.ts';
import type { FigureKind } from '../../schema/figures-manifest.ts';
import type { ScienceConfiguration, ScienceData } from '../../schema/science-data.ts';
import { barSvg } from '../benchmark/chart/bar.ts';
import { seriesColour } from '../../chart/palette.ts';
import { xySvg } from '../benchmark/chart/xy.ts';
import { formatNumber } from '../../science/numbers.ts';
import { type Sweep, sweepsOf } from './sweeps.ts';

/** A figure drawn as SVG, with its caption from the data and the anchored numbers it shows. */
export type DrawnFigure = { kind: FigureKind; name: string; label: string; svg: string; caption: string; source: Record<string, number> };

export const FIGURE_KINDS: readonly FigureKind[] = ['metric_bar', 'best_vs_baseline', 'param_sweep'];

const BEST = seriesColour(2);
const BASELINE = seriesColour(7);
const OTHER = seriesColour(0);

/** What the figures of one science data share. */
type Data = { data: ScienceData; metric: string; measured: ScienceConfiguration[]; names: Map<string, string> };

/**
 * The figures of the kinds asked for (all the data supports when none are named), from the numbers
 * of science_data.json only. A kind asked for by name that the data cannot support is an
 * InputError saying why; left to the default, it is left out.
 */
export function drawFigures(data: ScienceData, path: string, kinds?: readonly FigureKind[]): DrawnFigure[] {
  const metric = data.primary_metric.name;
  if (data.configurations.length === 0) {
    throw new InputError(`${path} has no configurations: no node of the run measured anything, so there is nothing to draw`, 'run the search until a node reports results, then transform_data again');
  }
  const measured = data.configurations.filter((c) => Object.hasOwn(c.metrics, metric));
  if (measured.length === 0) throw new InputError(`no configuration in ${path} measured the primary metric ${metric}, so there is nothing to draw`, 'check primary_metric.name against the configurations\' metrics');
  const d: Data = { data, metric, measured, names: displayNames(measured) };
  const figures: DrawnFigure[] = [];
  for (const kind of kinds ?? FIGURE_KINDS) {
    const made = MAKERS[kind](d);
    if (typeof made !== 'string') figures.push(...made);
    else if (kinds) throw new InputError(`figures asks for ${kind}, but ${made}`, `leave ${kind} out, or leave figures out to draw what the data supports`);
  }
  return figures;
}

/** Each kind's figures, or why the data has none of that kind. */
const MAKERS: Readonly<Record<FigureKind, (d: Data) => DrawnFigure[] | string>> = {
  metric_bar: (d) => [metricBar(d)],
  best_vs_baseline: bestVsBaseline,
  param_sweep: (d) => {
    const sweeps = sweepsOf(d.measured);
    if (!sweeps.length) return 'no numeric setting takes three or more values across configurations that differ in nothing else';
    const used = new Set<string>();
    return sweeps.map((s) => {
      const base = `sweep_${s.param.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'setting'}`;
      // two settings may make one name (lr-decay, lr_decay): a number keeps their files apart
      let id = base;
      for (let n = 2; used.has(id); n++) id = `${base}_${n}`;
      used.add(id);
      return paramSweep(d, s, id);
    });
  },
};

function metricBar(d: Data): DrawnFigure {
  const { best, baseline } = d.data;
  const role = (c: ScienceConfiguration) => [c.node_id === best?.node_id ? 'best' : '', c.node_id === baseline?.node_id ? 'baseline' : ''].filter(Boolean).join(', ');
  const labels = d.measured.map((c) => (role(c) ? `${d.names.get(c.node_id)} (${role(c)})` : (d.names.get(c.node_id) as string)));
  const colours = d.measured.map((c) => (c.node_id === best?.node_id ? BEST : c.node_id === baseline?.node_id ? BASELINE : OTHER));
  const values = d.measured.map((c) => c.metrics[d.metric] as number);
  const svg = barSvg({ labels, series: [{ name: '', values }], named: false, colours }, { title: '', xlabel: 'configuration', ylabel: axisLabel(d) });
  const source: Record<string, number> = Object.fromEntries(d.measured.map((c) => [`${c.node_id}.${d.metric}`, c.metrics[d.metric] as number]));
  const sentences = [`The primary metric, ${metricPhrase(d)}, of each of the ${d.measured.length} configurations that measured it.`];
  if (best) {
    sentences.push(`The best, ${d.names.get(best.node_id)}, reached ${formatNumber(best.value, 'plain')}${baseline && baseline.node_id !== best.node_id ? `; the baseline, ${d.names.get(baseline.node_id)}, ${formatNumber(baseline.value, 'plain')}` : ''}.`);
  } else if (baseline) sentences.push(`The baseline, ${d.names.get(baseline.node_id)}, reached ${formatNumber(baseline.value, 'plain')}.`);
  for (const which of ['best', 'baseline'] as const) {
    const key = `${which}.${d.metric}`;
    if (d.data[which] && d.data.values[key]) source[key] = d.data.values[key].value;
  }
  return { kind: 'metric_bar', name: 'fig_metric_bar', label: 'fig:metric_bar', svg, caption: sentences.join(' '), source };
}

function bestVsBaseline(d: Data): DrawnFigure[] | string {
  const { best, baseline, values } = d.data;
  if (!best) return 'the science data names no best configuration';
  if (!baseline) return 'the science data names no baseline';
  if (best.node_id === baseline.node_id) return 'the best configuration is the baseline';
  const [bestName, baselineName] = [d.names.get(best.node_id), d.names.get(baseline.node_id)];
  const svg = barSvg(
    { labels: [`${baselineName} (baseline)`, `${bestName} (best)`], series: [{ name: '', values: [baseline.value, best.value] }], named: false, colours: [BASELINE, BEST] },
    { title: '', xlabel: '', ylabel: axisLabel(d) },
  );
  const anchored = (which: 'best' | 'baseline', nodeId: string) => (values[`${which}.${d.metric}`] ? `${which}.${d.metric}` : `${nodeId}.${d.metric}`);
  const source: Record<string, number> = { [anchored('baseline', baseline.node_id)]: baseline.value, [anchored('best', best.node_id)]: best.value };
  let caption = `The primary metric, ${metricPhrase(d)}, of the best configuration, ${bestName}, against the baseline, ${baselineName}: ${formatNumber(best.value, 'plain')} against ${formatNumber(baseline.value, 'plain')}.`;
  const ratio = values[`improvement.${d.metric}.ratio`];
  const percent = values[`improvement.${d.metric}.percent`];
  if (ratio) source[`improvement.${d.metric}.ratio`] = ratio.value;
  if (percent) source[`improvement.${d.metric}.percent`] = percent.value;
  const change = [ratio && `${formatNumber(ratio.value, 'plain')} times better`, percent && `a change of ${formatNumber(percent.value, 'plain')}% from the baseline`].filter(Boolean);
  if (change.length) caption += ` That is ${change.join(', ')}.`;
  return [{ kind: 'best_vs_baseline', name: 'fig_best_vs_baseline', label: 'fig:best_vs_baseline', svg, caption, source }];
}

function paramSweep(d: Data, s: Sweep, id: string): DrawnFigure {
  const x = s.configurations.map((c) => c.params[s.param] as number);
  const y = s.configurations.map((c) => c.metrics[d.metric] as number);
  // a line joins points in order of the setting; two points at one setting would make it double back
  const kind = new Set(x).size === x.length ? 'line' : 'scatter';
  const svg = xySvg({ series: [{ name: '', x, y }], named: false }, kind, { title: '', xlabel: s.param, ylabel: axisLabel(d) });
  const better = (a: ScienceConfiguration, b: ScienceConfiguration) => ((a.metrics[d.metric] as number) > (b.metrics[d.metric] as number)) === d.data.primary_metric.higher_is_better;
  const top = s.configurations.reduce((a, b) => (better(b, a) ? b : a));
  const fixed = Object.entries(s.fixed);
  const others = fixed.length ? ` (the others fixed: ${fixed.slice(0, 3).map(([k, v]) => `${k} = ${typeof v === 'number' ? formatNumber(v, 'plain') : String(v)}`).join(', ')}${fixed.length > 3 ? ', ...' : ''})` : '';
  const caption =
    `The primary metric, ${metricPhrase(d)}, against ${s.param} across the configurations that differ only in ${s.param}${others}. ` +
    `The best of them, ${d.names.get(top.node_id)} with ${s.param} = ${formatNumber(top.params[s.param] as number, 'plain')}, reached ${formatNumber(top.metrics[d.metric] as number, 'plain')}.`;
  const source = Object.fromEntries(s.configurations.map((c) => [`${c.node_id}.${d.metric}`, c.metrics[d.metric] as number]));
  return { kind: 'param_sweep', name: `fig_${id}`, label: `fig:${id}`, svg, caption, source };
}

function metricPhrase(d: Data): string {
  const { name, unit, higher_is_better } = d.data.primary_metric;
  return `${name}${unit ? ` in ${unit}` : ''} (${higher_is_better ? 'higher' : 'lower'} is better)`;
}

function axisLabel(d: Data): string {
  const { name, unit, higher_is_better } = d.data.primary_metric;
  return `${name}${unit ? ` (${unit})` : ''}, ${higher_is_better ? 'higher' : 'lower'} is better`;
}

/** Configuration names, with the node id added where two configurations share one. */
function displayNames(configurations: ScienceConfiguration[]): Map<string, string> {
  const count = new Map<string, number>();
  for (const c of configurations) count.set(c.name, (count.get(c.name) ?? 0) + 1);
  return new Map(configurations.map((c) => [c.node_id, (count.get(c.name) ?? 0) > 1 || c.name.trim() === '' ? `${c.name} [${c.node_id}]`.trim() : c.name]));
}
