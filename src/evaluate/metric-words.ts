/** A metric experiments name often, with the words that name it and which way is better. */
export type KnownMetric = {
  keyword: string;
  higherIsBetter: boolean;
  aliases: string[];
  /** also an everyday or technical word ("double precision"): chosen only when no other metric is named */
  weak?: boolean;
};

const m = (keyword: string, higherIsBetter: boolean, aliases: string[] = [keyword], weak = false): KnownMetric =>
  weak ? { keyword, higherIsBetter, aliases, weak } : { keyword, higherIsBetter, aliases };

export const KNOWN_METRICS: readonly KnownMetric[] = [
  m('accuracy', true, ['accuracy', 'acc']),
  m('f1', true, ['f1', 'f1-score', 'f1 score', 'f-score', 'f-measure']),
  m('auc', true, ['auc', 'roc-auc', 'roc auc', 'auroc']),
  m('bleu', true),
  m('rouge', true, ['rouge', 'rouge-l', 'rouge-1', 'rouge-2']),
  m('meteor', true),
  m('r2', true, ['r2', 'r^2', 'r-squared']),
  m('iou', true, ['iou', 'miou']),
  m('psnr', true),
  m('ssim', true),
  m('success_rate', true, ['success rate']),
  m('throughput', true),
  m('bandwidth', true),
  m('speedup', true, ['speedup', 'speed-up']),
  m('gflops', true, ['gflops', 'gflop/s']),
  m('tflops', true, ['tflops', 'tflop/s']),
  m('perplexity', false, ['perplexity', 'ppl']),
  m('loss', false),
  m('error_rate', false, ['error rate']),
  m('wer', false, ['wer', 'word error rate']),
  m('mse', false, ['mse', 'mean squared error']),
  m('rmse', false, ['rmse', 'root mean squared error']),
  m('mae', false, ['mae', 'mean absolute error']),
  m('fid', false),
  m('latency', false),
  m('runtime', false, ['runtime', 'run time', 'execution time', 'wall time', 'wall-clock time', 'elapsed time', 'time to solution']),
  m('precision', true, ['precision'], true),
  m('recall', true, ['recall'], true),
  m('efficiency', true, ['efficiency'], true),
  m('reward', true, ['reward'], true),
];

/** Spaces, underscores and hyphens are one separator: "f1 score", "f1_score" and "f1-score" are one name. */
const flat = (name: string) => name.toLowerCase().replace(/[ _-]/g, '');
const BY_NAME = new Map(KNOWN_METRICS.flatMap((k) => k.aliases.map((a) => [flat(a), k] as const)));

// longest first, so that "root mean squared error" is read as rmse and not as mse
const ALIAS_RE = new RegExp(
  `(?<![A-Za-z0-9_])(${KNOWN_METRICS.flatMap((k) => k.aliases)
    .sort((a, b) => b.length - a.length)
    .map((a) => a.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/[ -]/g, '[ _-]'))
    .join('|')})(?![A-Za-z0-9_])`,
  'gi',
);

/** The known metric a name is, ignoring case and separators. */
export function knownMetric(name: string): KnownMetric | undefined {
  return BY_NAME.get(flat(name));
}

export type MetricMention = { metric: KnownMetric; index: number; length: number };

/** Every mention of a known metric in the text, in order. */
export function metricMentions(text: string): MetricMention[] {
  const found: MetricMention[] = [];
  for (const match of text.matchAll(ALIAS_RE)) {
    const metric = knownMetric(match[0]);
    if (metric) found.push({ metric, index: match.index, length: match[0].length });
  }
  return found;
}

/**
 * The metric a text talks about most: the most mentioned, the earlier on a tie; a weak word only
 * when nothing else is named.
 */
export function mostMentioned(text: string): KnownMetric | null {
  const mentions = metricMentions(text);
  const strong = mentions.filter((x) => !x.metric.weak);
  const pool = strong.length > 0 ? strong : mentions;
  const counts = new Map<KnownMetric, number>();
  for (const x of pool) counts.set(x.metric, (counts.get(x.metric) ?? 0) + 1);
  let best: KnownMetric | null = null;
  for (const [metric, n] of counts) if (best === null || n > (counts.get(best) ?? 0)) best = metric;
  return best;
}
