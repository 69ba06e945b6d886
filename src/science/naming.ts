import configurationsTemplate from '../prompts/transform/configurations.md' with { type: 'text' };
import { oneLine } from '../core/errors.ts';
import { isMapping } from '../core/values.ts';
import type { ModelClient } from '../llm/client.ts';
import { fillOwnPrompt } from '../prompts/templates.ts';
import type { MeasuredNode } from './configurations.ts';
import { allowedNumbers, foreignNumbers } from './numbers.ts';

export type Naming = { names: Map<string, string>; method_summary: string };
export type NamingInput = { configs: readonly MeasuredNode[]; metric: string; higherIsBetter: boolean; goal: string; idea: string | null };

const MAX_NAME = 80;
const MAX_SUMMARY = 2000;

/**
 * The configurations' names and the method summary: the model's, where it gives them and they
 * quote no number the data does not hold; else (no model, given as why there is none; a failed
 * call; a number from nowhere) the deterministic ones, with a note saying so.
 */
export async function nameConfigurations(model: ModelClient | string, input: NamingInput, notes: string[], signal?: AbortSignal): Promise<Naming> {
  const fallback = deterministicNaming(input);
  if (typeof model === 'string') {
    notes.push(`names and method summary are deterministic: no model (${model})`);
    return fallback;
  }
  const listed = promptOrder(input.configs);
  let answer: { names: string[]; method_summary: string };
  try {
    answer = await model.completeJson(
      {
        role: 'paper',
        messages: [
          { role: 'system', content: fillOwnPrompt(configurationsTemplate, { goal: input.goal || '(not given)', idea: input.idea ?? '(none recorded)', metric: metricLine(input), configurations: configurationLines(listed) }) },
          { role: 'user', content: 'Name the configurations and summarise the method. Answer with the JSON object only.' },
        ],
        meta: { phase: 'paper', skill: 'transform-skill', component: 'transform', op: 'name_configurations' },
        signal,
      },
      (v) => checkAnswer(v, listed.length),
    );
  } catch (err) {
    if (signal?.aborted) throw err;
    notes.push(`names and method summary are deterministic: the model gave none (${oneLine(err)})`);
    return fallback;
  }
  const names = new Map<string, string>();
  for (const [i, c] of listed.entries()) {
    const name = (answer.names[i] as string).trim();
    const foreign = foreignNumbers(name, allowedNumbers([c.params]));
    if (foreign.length > 0) notes.push(`${c.node_id}: the model's name "${name}" quotes ${foreign.join(', ')}, which its settings do not hold; named deterministically`);
    names.set(c.node_id, foreign.length > 0 ? (fallback.names.get(c.node_id) as string) : name);
  }
  const summary = answer.method_summary.trim();
  const foreign = foreignNumbers(summary, allowedNumbers(input.configs.map((c) => c.params), [input.goal, input.idea ?? '']));
  notes.push(
    foreign.length > 0
      ? `configuration names are the model's; its method summary quotes ${foreign.join(', ')}, which neither the experiment nor a setting gives, so the summary is deterministic`
      : "configuration names and method summary are the model's",
  );
  return { names: unique(names), method_summary: foreign.length > 0 ? fallback.method_summary : summary };
}

/**
 * Names from the settings that tell configurations apart (those whose values differ), after the
 * node's label: "improve (algorithm shell, gap_ratio 2.4)"; the node id where none differ.
 */
export function deterministicNaming(input: NamingInput): Naming {
  const keys = [...new Set(input.configs.flatMap((c) => Object.keys(c.params)))].filter((k) => new Set(input.configs.map((c) => JSON.stringify(c.params[k] ?? null))).size > 1).slice(0, 3);
  const names = new Map<string, string>();
  for (const c of input.configs) {
    const parts = keys.filter((k) => c.params[k] !== undefined).map((k) => `${k} ${String(c.params[k])}`);
    names.set(c.node_id, parts.length > 0 ? `${c.label} (${parts.join(', ')})` : `${c.label} ${c.node_id}`);
  }
  const named = unique(names);
  const baseline = input.configs.find((c) => c.label === 'baseline') ?? input.configs.find((c) => c.parent_id === null);
  const summary = [
    `The search measured these configurations: ${[...named.values()].join('; ')}.`,
    `They are ranked by ${metricLine(input)}${baseline ? `, against the baseline ${named.get(baseline.node_id)}` : ''}.`,
  ].join(' ');
  return { names: named, method_summary: summary };
}

/** Names made unique by the node id where two configurations would share one. */
function unique(names: Map<string, string>): Map<string, string> {
  const count = new Map<string, number>();
  for (const n of names.values()) count.set(n, (count.get(n) ?? 0) + 1);
  return new Map([...names].map(([id, n]) => [id, (count.get(n) ?? 0) > 1 ? `${n} (${id})` : n]));
}

function metricLine(input: NamingInput): string {
  return `${input.metric} (${input.higherIsBetter ? 'higher' : 'lower'} is better)`;
}

/**
 * The configurations in the order the prompt lists them: by depth, label, settings and the
 * search's name, never by node id or tree order, which differ between runs of the same search;
 * the same configurations are then asked about alike (and a recording replays).
 */
function promptOrder(configs: readonly MeasuredNode[]): MeasuredNode[] {
  const key = (c: MeasuredNode) => `${String(c.depth).padStart(4, '0')}\u0000${c.label}\u0000${JSON.stringify(c.params)}\u0000${c.tree_name}`;
  return [...configs].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function configurationLines(configs: readonly MeasuredNode[]): string {
  return configs.map((c, i) => `${i + 1}. label: ${c.label}; search name: ${c.tree_name || '(none)'}; settings: ${JSON.stringify(c.params)}`).join('\n');
}

function checkAnswer(v: unknown, count: number): string | null {
  if (!isMapping(v) || !Array.isArray(v.names)) return 'the answer must be an object with a names list and method_summary';
  if (v.names.length !== count) return `names must hold ${count} names, one per configuration in their order; it holds ${v.names.length}`;
  for (const [i, n] of v.names.entries()) {
    if (typeof n !== 'string' || n.trim() === '') return `name ${i + 1} must be a non-empty string`;
    if (n.length > MAX_NAME) return `name ${i + 1} is over ${MAX_NAME} characters`;
  }
  if (typeof v.method_summary !== 'string' || v.method_summary.trim() === '') return 'method_summary must be a non-empty string';
  if (v.method_summary.length > MAX_SUMMARY) return `method_summary is over ${MAX_SUMMARY} characters`;
  return null;
}
