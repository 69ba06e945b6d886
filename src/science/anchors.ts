import type { ScienceConfiguration, ScienceData, ScienceValue } from '../schema/science-data.ts';
import { toKeyword } from '../evaluate/metric-keyword.ts';

type Pick = { node_id: string; value: number } | null;
export type Comparison = { metric: string | null; best: Pick; baseline: Pick };

/** The measurement key of the configurations that is the primary metric (matched as a keyword), or null when none measured it. */
export function metricKey(configs: readonly ScienceConfiguration[], metric: string): string | null {
  const want = toKeyword(metric);
  for (const c of configs) for (const k of Object.keys(c.metrics)) if (toKeyword(k) === want) return k;
  return null;
}

/**
 * The best configuration by the metric (ties go to the earlier) and the baseline: the one labelled
 * baseline, else the root of the tree, else the shallowest draft; each only among those that
 * measured the metric.
 */
export function compare(configs: readonly ScienceConfiguration[], metric: string, higherIsBetter: boolean): Comparison {
  const key = metricKey(configs, metric);
  if (key === null) return { metric: null, best: null, baseline: null };
  const measured = configs.filter((c) => typeof c.metrics[key] === 'number');
  const value = (c: ScienceConfiguration) => c.metrics[key] as number;
  const at = (c: ScienceConfiguration | undefined): Pick => (c ? { node_id: c.node_id, value: value(c) } : null);
  const best = measured.reduce<ScienceConfiguration | undefined>((b, c) => (b === undefined || (higherIsBetter ? value(c) > value(b) : value(c) < value(b)) ? c : b), undefined);
  const drafts = measured.filter((c) => c.label === 'draft').sort((a, b) => a.depth - b.depth);
  const baseline = measured.find((c) => c.label === 'baseline') ?? measured.find((c) => c.parent_id === null) ?? drafts[0];
  return { metric: key, best: at(best), baseline: at(baseline) };
}

/** Computed values keep six significant digits: past that a ratio of counts is noise in print. */
const computed = (x: number) => Number(x.toPrecision(6));

/**
 * The anchor values of science_data.json (see the schema): every measurement of every
 * configuration, those of the best and the baseline, the improvement of the primary metric, the
 * count. Every value is a measurement of a results.json or arithmetic on them.
 */
export function anchorValues(configs: readonly ScienceConfiguration[], cmp: Comparison, higherIsBetter: boolean, notes: string[]): ScienceData['values'] {
  const values: Record<string, ScienceValue> = {};
  const byId = new Map(configs.map((c) => [c.node_id, c]));
  for (const c of configs) {
    for (const [metric, value] of Object.entries(c.metrics)) values[`${c.node_id}.${metric}`] = { value, metric, node_id: c.node_id, what: `${metric} of ${c.name}` };
  }
  for (const [role, pick] of [['best', cmp.best], ['baseline', cmp.baseline]] as const) {
    const c = pick ? byId.get(pick.node_id) : undefined;
    if (!c) continue;
    for (const [metric, value] of Object.entries(c.metrics)) values[`${role}.${metric}`] = { value, metric, node_id: c.node_id, what: `${metric} of the ${role} configuration (${c.name})` };
  }
  const { metric, best, baseline } = cmp;
  if (metric && best && baseline && best.node_id !== baseline.node_id) {
    const [num, den] = higherIsBetter ? [best.value, baseline.value] : [baseline.value, best.value];
    if (den !== 0) values[`improvement.${metric}.ratio`] = { value: computed(num / den), metric, node_id: null, what: `how many times better the best configuration's ${metric} is than the baseline's` };
    else notes.push(`improvement.${metric}.ratio left out: it would divide by a ${metric} of 0`);
    if (baseline.value !== 0) values[`improvement.${metric}.percent`] = { value: computed(((best.value - baseline.value) / Math.abs(baseline.value)) * 100), metric, node_id: null, what: `change of ${metric} from the baseline to the best configuration, in percent of the baseline's` };
    else notes.push(`improvement.${metric}.percent left out: the baseline's ${metric} is 0`);
  }
  values['count.configurations'] = { value: configs.length, metric: 'configurations', node_id: null, what: 'configurations with real data (measured nodes)' };
  return values;
}
