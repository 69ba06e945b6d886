import { experimentMetric } from '../core/config/experiment-detail.ts';
import { InputError } from '../core/errors.ts';
import { printable } from '../core/text.ts';
import { knownMetric, metricMentions, mostMentioned } from './metric-words.ts';

/** The metric an experiment is judged by, and where in its text that was found. */
export type MetricChoice = {
  keyword: string;
  higherIsBetter: boolean;
  found: 'metric marker' | 'metric line' | 'maximize/minimize' | 'known metric word';
};

/** What follows `<!--` in a metric marker and in a threshold marker, up to the value. */
const MARKER_HEAD = /\s*(?:primary[ _-]?)?metric\s*:/iy;
const MIN_EXPECTED_HEAD = /\s*min_expected_metric\s*:/iy;
const GOAL_RE = /\b(maximi[sz]e|minimi[sz]e)\s+(?:the\s+|an?\s+)?((?:[\w/^-]+\s*){1,4})/gi;
/** Where the name in a `Metric:` value ends and its explanation starts. */
const NAME_END_RE = /\s+(?:and|or|vs\.?|on|of|for|at)\s+|[,;:(]|\s[-–—]\s/i;
const MAX_KEYWORD_CHARS = 64;

/**
 * The metric named in an experiment description, looked for in this order: a
 * `<!-- metric: name -->` comment, a `Primary metric:` or `Metric:` line, a "maximize <metric>" or
 * "minimize <metric>" phrase, then the well-known metric word mentioned most. Null when none is there.
 */
export function findMetric(text: string): MetricChoice | null {
  const marker = commentValue(text, MARKER_HEAD);
  const fromMarker = marker ? named(marker, text, 'metric marker') : null;
  if (fromMarker) return fromMarker;
  const line = experimentMetric(text);
  const fromLine = line ? named(line, text, 'metric line') : null;
  if (fromLine) return fromLine;
  const goal = goalMetric(text);
  if (goal) return goal;
  const known = mostMentioned(text);
  return known ? { keyword: known.keyword, higherIsBetter: known.higherIsBetter, found: 'known metric word' } : null;
}

/** The `<!-- min_expected_metric: x -->` threshold, 0 when the text sets none. */
export function findMinExpectedMetric(text: string): number {
  const raw = commentValue(text, MIN_EXPECTED_HEAD);
  if (raw === undefined) return 0;
  const value = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(value)) throw new InputError(`min_expected_metric '${printable(raw)}' is not a number`, 'write it as <!-- min_expected_metric: 0.8 -->');
  return value;
}

/**
 * The trimmed value of the first `<!-- head value -->` comment whose text starts with `head` (a
 * sticky pattern). One pass over the text: a pattern with a lazy value and no `-->` to end it reads
 * the rest of the text again from every `<!--`, minutes for a few hundred kilobytes.
 */
function commentValue(text: string, head: RegExp): string | undefined {
  let end = -1;
  for (let start = text.indexOf('<!--'); start >= 0; start = text.indexOf('<!--', start + 4)) {
    // the first --> after a start is the first after every later start before it
    if (end < start + 4) end = text.indexOf('-->', start + 4);
    if (end < 0) return undefined;
    head.lastIndex = start + 4;
    if (head.test(text)) return text.slice(head.lastIndex, end).trim();
  }
  return undefined;
}

/** A metric the author named: its name as a snake_case keyword, and its direction. */
function named(value: string, text: string, found: MetricChoice['found']): MetricChoice | null {
  const name = value.replace(/[*`]/g, '').split(NAME_END_RE)[0] ?? '';
  const keyword = toKeyword(name);
  if (!keyword) return null;
  return { keyword, higherIsBetter: statedDirection(value) ?? goalDirection(text, name) ?? wordDirection(name) ?? true, found };
}

/** "maximize <metric>" / "minimize <metric>", when the words after it are a metric: a known one or a snake_case name. */
function goalMetric(text: string): MetricChoice | null {
  for (const match of text.matchAll(GOAL_RE)) {
    const higherIsBetter = /^maxim/i.test(match[1] ?? '');
    const words = (match[2] ?? '').trim();
    const mention = metricMentions(words)[0];
    if (mention) return { keyword: qualified(words.slice(0, mention.index), mention.metric.keyword), higherIsBetter, found: 'maximize/minimize' };
    const first = words.split(/\s+/)[0] ?? '';
    if (/^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/i.test(first)) return { keyword: toKeyword(first), higherIsBetter, found: 'maximize/minimize' };
  }
  return null;
}

/** "validation" + loss → validation_loss; a longer lead-in ("memory use and") is not part of the name. */
function qualified(lead: string, keyword: string): string {
  const words = lead.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 2 || words.some((w) => LINK_WORDS.has(w.toLowerCase()))) return keyword;
  return toKeyword(`${lead} ${keyword}`);
}

const LINK_WORDS = new Set(['and', 'or', 'while', 'with', 'by', 'for', 'of', 'in', 'on', 'to', 'the', 'both', 'its', 'their']);

/** "higher is better", "lower is better", "(maximize)" or "(minimize)" written beside the name. */
function statedDirection(value: string): boolean | null {
  if (/\b(higher|larger|bigger|more)\s+is\s+better\b|\bmaximi[sz]e/i.test(value)) return true;
  if (/\b(lower|smaller|less|fewer)\s+is\s+better\b|\bminimi[sz]e/i.test(value)) return false;
  return null;
}

/** The direction a "maximize/minimize <name>" phrase elsewhere in the text gives the named metric. */
function goalDirection(text: string, name: string): boolean | null {
  const keyword = toKeyword(name);
  for (const match of text.matchAll(GOAL_RE)) {
    const said = toKeyword(match[2] ?? '');
    if (said === keyword || said.startsWith(`${keyword}_`)) return /^maxim/i.test(match[1] ?? '');
  }
  return null;
}

/** The direction of a known metric word in the name ("val_loss" is a loss). */
function wordDirection(name: string): boolean | null {
  const known = knownMetric(name) ?? metricMentions(name.replace(/_/g, ' '))[0]?.metric;
  return known ? known.higherIsBetter : null;
}

/** "Top-1 Accuracy" → top_1_accuracy: the key a measurement of it is stored under. */
export function toKeyword(name: string): string {
  const snake = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return snake.length <= MAX_KEYWORD_CHARS ? snake : snake.slice(0, MAX_KEYWORD_CHARS).replace(/_[^_]*$/, '');
}
