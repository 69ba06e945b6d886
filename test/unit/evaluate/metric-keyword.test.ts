import { describe, expect, test } from 'bun:test';
import { InputError } from '../../../src/core/errors.ts';
import { findMetric, findMinExpectedMetric, toKeyword } from '../../../src/evaluate/metric-keyword.ts';

type Case = [text: string, keyword: string, higherIsBetter: boolean, found: string];

const CASES: Case[] = [
  // explicit markers win over everything else in the text
  ['# Exp\n<!-- metric: accuracy -->\nWe minimize loss.', 'accuracy', true, 'metric marker'],
  ['<!-- primary_metric: Wall Time (lower is better) -->', 'wall_time', false, 'metric marker'],
  ['<!--metric:tokens_per_second-->', 'tokens_per_second', true, 'metric marker'],
  ['<!-- metric: val_loss -->', 'val_loss', false, 'metric marker'],
  ['<!-- metric: time_to_solution (minimize) -->', 'time_to_solution', false, 'metric marker'],
  ['Primary metric: F1 score\nalso accuracy, accuracy', 'f1_score', true, 'metric line'],
  ['- **Metric:** GFLOP/s, measured with likwid', 'gflop_s', true, 'metric line'],
  ['Metrics: perplexity and BLEU', 'perplexity', false, 'metric line'],
  ['Metric: top-1 accuracy on ImageNet', 'top_1_accuracy', true, 'metric line'],
  ['Metric: energy_j\nWe want to minimize energy_j per run.', 'energy_j', false, 'metric line'],
  // a goal phrase names the metric and its direction
  ['We aim to minimize the validation loss of the model.', 'validation_loss', false, 'maximize/minimize'],
  ['Goal: maximise throughput of the solver.', 'throughput', true, 'maximize/minimize'],
  ['Minimize memory use and latency.', 'latency', false, 'maximize/minimize'],
  ['Maximize tokens_per_joule on the GPU.', 'tokens_per_joule', true, 'maximize/minimize'],
  // otherwise the well-known metric word mentioned most, the earlier on a tie
  ['Train a CNN and report its accuracy. Accuracy matters; so does loss.', 'accuracy', true, 'known metric word'],
  ['Report the RMSE and the MAE of the regression, and RMSE per fold.', 'rmse', false, 'known metric word'],
  ['Compute the root mean squared error.', 'rmse', false, 'known metric word'],
  ['Measure speedup over the serial baseline and the latency.', 'speedup', true, 'known metric word'],
  ['A double precision GEMM: report GFLOPS.', 'gflops', true, 'known metric word'],
  ['Tune the retriever for precision.', 'precision', true, 'known metric word'],
  ['Lower the perplexity (ppl) of the language model.', 'perplexity', false, 'known metric word'],
  ['Improve the ROUGE-L of summaries.', 'rouge', true, 'known metric word'],
  ['Report the wall-clock time of each run.', 'runtime', false, 'known metric word'],
];

describe('findMetric', () => {
  test.each(CASES)('%j → %s', (text, keyword, higherIsBetter, found) => {
    expect(findMetric(text)).toEqual({ keyword, higherIsBetter, found: found as never });
  });

  test.each(['', 'Write a poem about the sea.', 'We maximize the use of caches.', 'Accurately lossless compression.'])('no metric in %j', (text) => {
    expect(findMetric(text)).toBeNull();
  });
});

describe('findMinExpectedMetric', () => {
  test('reads the HTML comment, else 0', () => {
    expect(findMinExpectedMetric('x\n<!-- min_expected_metric: 0.8 -->\n')).toBe(0.8);
    expect(findMinExpectedMetric('<!--min_expected_metric:-3e2-->')).toBe(-300);
    expect(findMinExpectedMetric('no marker')).toBe(0);
  });

  test.each(['high', '', '0.8x'])('refuses %j, naming the marker', (value) => {
    expect(() => findMinExpectedMetric(`<!-- min_expected_metric: ${value} -->`)).toThrow(InputError);
    expect(() => findMinExpectedMetric(`<!-- min_expected_metric: ${value} -->`)).toThrow(/^min_expected_metric '.*' is not a number$/);
  });
});

describe('markers in a long text', () => {
  test('a marker nested in or after comments is found as before', () => {
    expect(findMetric('<!-- note <!-- metric: val_loss --> -->')?.keyword).toBe('val_loss');
    expect(findMetric('<!-- a comment --> text <!--PRIMARY_metric:\n  f1 score\n-->')?.keyword).toBe('f1_score');
    expect(findMinExpectedMetric('<!-- -->min_expected_metric: 5 --> <!-- min_expected_metric: 2 -->')).toBe(2);
  });

  // the pattern this replaces read the rest of the text again from every unclosed marker: minutes for these
  test('many unclosed markers are read in one pass', () => {
    const unclosed = '<!-- metric: '.repeat(60_000);
    expect(findMetric(`${unclosed} Measure the accuracy.`)?.keyword).toBe('accuracy');
    expect(findMinExpectedMetric('<!-- min_expected_metric: '.repeat(60_000))).toBe(0);
  }, 20_000);
});

describe('toKeyword', () => {
  test('makes a snake_case key of a name, cut at a word within 64 characters', () => {
    expect(toKeyword('  Top-1 Accuracy (%) ')).toBe('top_1_accuracy');
    const long = toKeyword('a'.repeat(30) + ' ' + 'b'.repeat(30) + ' ' + 'c'.repeat(30));
    expect(long).toBe(`${'a'.repeat(30)}_${'b'.repeat(30)}`);
  });
});
