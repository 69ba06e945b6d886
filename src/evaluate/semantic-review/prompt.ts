import template from '../../prompts/evaluator/semantic_review.md' with { type: 'text' };
import { fillOwnPrompt } from '../../prompts/templates.ts';
import { unique } from '../../core/values.ts';
import type { ScienceData } from '../../schema/science-data.ts';
import { evidenceFor } from './answer.ts';
import type { ClaimSentence } from './claims.ts';

const MAX_EXPERIMENT_CHARS = 3000;
const MAX_CONTRACT_CHARS = 2000;
/** Configurations shown: enough to see what was and was not varied; a search of hundreds is summarised by count. */
const MAX_CONFIGURATIONS = 40;
/** What of the metric contract bears on claims: the metric, its direction, what must be measured, the claims it allows. */
const CONTRACT_FIELDS = ['metric_keyword', 'higher_is_better', 'min_expected_metric', 'required_measured', 'claims', 'scoring_guide', 'formula'];

const params = (p: Record<string, unknown>) => Object.entries(p).map(([k, v]) => `${k}=${String(v)}`).join(', ') || 'no settings';

function configurations(data: ScienceData): string {
  const shown = data.configurations.slice(0, MAX_CONFIGURATIONS).map((c) => `- ${c.node_id} "${c.name}" (${c.label}): ${params(c.params)}; measured ${params(c.metrics)}`);
  const more = data.configurations.length - shown.length;
  return [...shown, ...(more > 0 ? [`(${more} more configurations not shown)`] : [])].join('\n') || '(none)';
}

function primaryMetric(data: ScienceData): string {
  const m = data.primary_metric;
  const name = (id: string | undefined) => data.configurations.find((c) => c.node_id === id)?.name ?? id ?? 'none';
  return `${m.name} (${m.higher_is_better ? 'higher' : 'lower'} is better${m.unit ? `, in ${m.unit}` : ''}); baseline: ${name(data.baseline?.node_id)}; best: ${name(data.best?.node_id)}`;
}

function contractText(contract: Record<string, unknown> | null): string {
  if (!contract) return '(none)';
  const picked = Object.fromEntries(CONTRACT_FIELDS.filter((k) => contract[k] !== undefined).map((k) => [k, contract[k]]));
  return JSON.stringify(picked).slice(0, MAX_CONTRACT_CHARS);
}

function evidenceLines(claims: ClaimSentence[], data: ScienceData): string {
  const keys = unique(claims.flatMap((c) => c.keys));
  return keys
    .map((key) => {
      const e = evidenceFor(key, data);
      if (!e) return `- ${key}: no such value`;
      const from = e.configuration ? `node ${e.node_id}, configuration "${e.configuration.name}" (${e.configuration.label})` : e.node_id ? `node ${e.node_id}` : 'computed across configurations';
      const exact = Number(e.printed.replace(/[,%]/g, '')) === e.value ? '' : ` (exactly ${e.value})`;
      return `- ${key}: ${e.printed}${exact} (metric ${e.metric}; ${from}; ${e.what})`;
    })
    .join('\n');
}

/** The system prompt of the semantic review: the experiment, the data the claims rest on, the claims. */
export function semanticReviewPrompt(data: ScienceData, contract: Record<string, unknown> | null, claims: ClaimSentence[], leftOut: number): string {
  const ctx = data.experiment_context;
  return fillOwnPrompt(
    template,
    {
      experiment: [ctx.goal, ctx.idea, ctx.method_summary].filter((s): s is string => Boolean(s?.trim())).join('\n\n').slice(0, MAX_EXPERIMENT_CHARS) || '(not given)',
      primary_metric: primaryMetric(data),
      configurations: configurations(data),
      contract: contractText(contract),
      evidence: evidenceLines(claims, data),
      count: claims.length,
      left_out: leftOut > 0 ? `; ${leftOut} more left out` : '',
      claims: claims.map((c) => `- ${c.id} (section: ${c.section ?? 'none'}; keys: ${c.keys.join(', ')}) ${c.sentence}`).join('\n'),
    },
    'evaluator/semantic_review',
  );
}
