import { Type as T } from '@sinclair/typebox';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { finiteNumbers } from './numbers.ts';
import { mannWhitneyU } from './stats/mannwhitney.ts';
import { mean, median } from './stats/summary.ts';
import { studentTTest } from './stats/ttest.ts';
import { wilcoxonSignedRank } from './stats/wilcoxon.ts';

const TestName = T.Union([T.Literal('ttest'), T.Literal('mannwhitney'), T.Literal('wilcoxon')]);

export const statisticalTest = defineTool({
  name: 'statistical_test',
  description:
    'Two-sided test of whether two samples differ, with the p-values SciPy gives by default. ' +
    'ttest: two-sample Student t with pooled variance (scipy.stats.ttest_ind), Welch\'s p-value alongside; ' +
    'mannwhitney: Mann-Whitney U (scipy.stats.mannwhitneyu: exact when a sample has at most 8 values and nothing is tied, else normal approximation with tie and continuity correction); ' +
    'wilcoxon: signed-rank test of paired samples of equal length (scipy.stats.wilcoxon: zero differences dropped, exact for up to 50 pairs without ties or zeros, ' +
    'all sign assignments for up to 13 pairs with ties or zeros, else normal approximation). ' +
    'Returns {test, statistic, p_value, method, n_a, n_b, mean_a, mean_b, median_a, median_b, ...}; ttest adds df and welch_*.',
  params: toolParams({
    data_a: T.Array(T.Number(), { description: 'first sample (for wilcoxon, the first value of each pair)' }),
    data_b: T.Array(T.Number(), { description: 'second sample (for wilcoxon, the second value of each pair)' }),
    test: T.Optional(TestName),
  }),
  run(args) {
    const a = [...finiteNumbers(args.data_a, 'data_a')];
    const b = [...finiteNumbers(args.data_b, 'data_b')];
    const test = args.test ?? 'ttest';
    const described = { n_a: a.length, n_b: b.length, mean_a: mean(a), mean_b: mean(b), median_a: median(a), median_b: median(b) };
    switch (test) {
      case 'ttest':
        return { test, alternative: 'two-sided', method: 'exact', ...studentTTest(a, b), ...described };
      case 'mannwhitney':
        return { test, alternative: 'two-sided', ...mannWhitneyU(a, b), ...described };
      case 'wilcoxon':
        return { test, alternative: 'two-sided', ...wilcoxonSignedRank(a, b), ...described };
    }
  },
});
