import type { ScienceConfiguration } from '../../schema/science-data.ts';

/** A numeric setting varied while every other setting stayed the same, and the configurations that show it, in order of the setting. */
export type Sweep = { param: string; configurations: ScienceConfiguration[]; fixed: ScienceConfiguration['params'] };

/** Fewer points than this show a comparison, not a trend: the bar chart has them already. */
const MIN_VALUES = 3;
/** A paper has room for a few sweeps: those with the most settings tried are kept. */
const MAX_SWEEPS = 3;

/**
 * The parameter sweeps in the configurations (each measured the primary metric): for each numeric
 * setting, the largest set of configurations that differ only in it, when it takes at least
 * MIN_VALUES values there. Only such a set shows the metric's dependence on that one setting.
 */
export function sweepsOf(configurations: ScienceConfiguration[]): Sweep[] {
  const params = new Set(configurations.flatMap((c) => Object.keys(c.params).filter((k) => typeof c.params[k] === 'number')));
  const found: (Sweep & { values: number })[] = [];
  for (const param of [...params].sort()) {
    const groups = new Map<string, ScienceConfiguration[]>();
    for (const c of configurations) {
      if (typeof c.params[param] !== 'number') continue;
      const rest = JSON.stringify(Object.entries(c.params).filter(([k]) => k !== param).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      groups.set(rest, [...(groups.get(rest) ?? []), c]);
    }
    let chosen: ScienceConfiguration[] = [];
    let values = 0;
    for (const group of groups.values()) {
      const n = new Set(group.map((c) => c.params[param])).size;
      if (n > values || (n === values && group.length > chosen.length)) [chosen, values] = [group, n];
    }
    if (values < MIN_VALUES) continue;
    const first = chosen[0] as ScienceConfiguration;
    const fixed = Object.fromEntries(Object.entries(first.params).filter(([k]) => k !== param));
    const ordered = [...chosen].sort((a, b) => (a.params[param] as number) - (b.params[param] as number));
    found.push({ param, configurations: ordered, fixed, values });
  }
  return found
    .sort((a, b) => b.values - a.values)
    .slice(0, MAX_SWEEPS)
    .map(({ values: _, ...sweep }) => sweep);
}
