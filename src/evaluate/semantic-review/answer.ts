import { type Static, Type as T } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { bundledWorkflow } from '../../core/config/workflow.ts';
import { keyPath } from '../../core/key-path.ts';
import { formatClaimValue } from '../../paper/claims.ts';
import type { ScienceData } from '../../schema/science-data.ts';
import { formatNumber, maskNumbers, numbersIn } from '../../science/numbers.ts';
import type { Tolerance } from '../claim-gate/policy.ts';
import { matches } from '../claim-gate/tolerance.ts';
import { type ClaimSentence, plainText } from './claims.ts';

export const VERDICTS = ['supported', 'overstated', 'unsupported'] as const;
export type Verdict = (typeof VERDICTS)[number];

const Text = T.String();
const Maybe = (s: typeof Text) => T.Optional(T.Union([s, T.Null()]));

/** The eval model's answer. Extra keys are let pass and ignored; what is read must be of its type. */
export const SemanticAnswer = T.Object({
  findings: T.Array(
    T.Object({
      claim: Text,
      key: Maybe(Text),
      section: Maybe(Text),
      verdict: T.Union(VERDICTS.map((v) => T.Literal(v))),
      issue: Text,
      suggestion: Text,
    }),
  ),
  summary: Text,
});
export type SemanticAnswer = Static<typeof SemanticAnswer>;
type ModelFinding = SemanticAnswer['findings'][number];

/** What is wrong with an answer, in words the model is shown when asked again; null when it fits. */
export function answerProblem(value: unknown): string | null {
  const first = Value.Errors(SemanticAnswer, value).First();
  if (!first) return null;
  const at = keyPath(first.path);
  return `${at ? `${at}: ` : ''}${first.message.toLowerCase()}; answer {"findings": [{"claim", "key", "section", "verdict": "supported" | "overstated" | "unsupported", "issue", "suggestion"}], "summary"}`;
}

/** The measured value a finding is about, from science_data.json: the record's numbers are these, never the model's. */
export type Evidence = {
  key: string;
  value: number;
  /** the value as the paper prints it, as plain text */
  printed: string;
  metric: string;
  node_id: string | null;
  what: string;
  configuration: { name: string; label: string; params: Record<string, number | string | boolean> } | null;
};

export type Finding = {
  /** the paper's sentence (taken from the paper, not from the model's quote of it) */
  claim: string;
  key: string;
  section: string | null;
  line: number;
  verdict: Verdict;
  issue: string;
  suggestion: string;
  /** for a claim to change: the point paper_refine acts on, naming the section; the same text as in `issues` */
  revision?: string;
  evidence: Evidence;
};

export type DroppedFinding = { claim: string; key: string | null; verdict: Verdict; reason: string };

const MAX_TEXT = 600;
const clip = (s: string) => (s.trim().length > MAX_TEXT ? `${s.trim().slice(0, MAX_TEXT - 1)}…` : s.trim());

export function evidenceFor(key: string, data: ScienceData): Evidence | null {
  const v = Object.hasOwn(data.values, key) ? data.values[key] : undefined;
  if (!v) return null;
  const c = v.node_id === null ? undefined : data.configurations.find((x) => x.node_id === v.node_id);
  return {
    key,
    value: v.value,
    printed: plainText(formatClaimValue(key, v.value)),
    metric: v.metric,
    node_id: v.node_id,
    what: v.what,
    configuration: c ? { name: c.name, label: c.label, params: c.params } : null,
  };
}

/** What stands for a number of the model's text that is no value of the science data. */
const UNBACKED_NUMBER = '[a number not in the data]';

/** The claim gate's tolerance when the run's policy is not given: the bundled workflow's. */
export function defaultTolerance(): Tolerance {
  return bundledWorkflow().claim_gate_policy.numeric_match.default_tolerance;
}

/**
 * A model's text with every number that is not a value of the science data (within the
 * tolerance, or as the paper or a caption prints it) replaced by UNBACKED_NUMBER: the numbers of a
 * review come from measured data, never from a model's words. The digits of a science-data key
 * named in the text (`node_1.time_s`) are the key's.
 */
export function numberMasker(data: ScienceData, tol: Tolerance): (text: string) => string {
  const values = Object.entries(data.values).map(([key, v]) => ({ key, value: v.value }));
  const printed = new Set(values.flatMap(({ key, value }) => [...numbersIn(plainText(formatClaimValue(key, value)), 'every'), ...numbersIn(formatNumber(value, 'plain'), 'every')].map(Math.abs)));
  const backed = (n: number) => printed.has(Math.abs(n)) || values.some((v) => matches(Math.abs(n), Math.abs(v.value), tol));
  const keys = values.map((v) => v.key).filter((k) => /\d/.test(k));
  return (text) => {
    const keep: { start: number; end: number }[] = [];
    for (const k of keys) for (let i = text.indexOf(k); i >= 0; i = text.indexOf(k, i + 1)) keep.push({ start: i, end: i + k.length });
    return maskNumbers(text, backed, UNBACKED_NUMBER, keep);
  };
}

/**
 * The model's findings tied to the paper and the data: each is placed on a reviewed sentence by its
 * key (or, without one, by the sentence it quotes) and given that key's value from the science
 * data. A finding naming a key the data lacks, or no sentence that was reviewed, is dropped with
 * the reason: its number or its claim would be the model's own. The model's words (its issue,
 * suggestion and quote) keep only the numbers the data holds (numberMasker).
 */
export function groundFindings(found: ModelFinding[], claims: ClaimSentence[], data: ScienceData, tol: Tolerance = defaultTolerance()): { findings: Finding[]; dropped: DroppedFinding[] } {
  const findings: Finding[] = [];
  const dropped: DroppedFinding[] = [];
  const mask = numberMasker(data, tol);
  for (const f of found) {
    const given = f.key?.trim() || null;
    const drop = (reason: string) => dropped.push({ claim: mask(clip(f.claim)), key: given, verdict: f.verdict, reason });
    if (given !== null && !Object.hasOwn(data.values, given)) {
      drop(`unknown key '${given}': science_data.json has no such value`);
      continue;
    }
    const claim = given === null ? matching(claims, f.claim) : (closest(claims.filter((c) => c.keys.includes(given)), f.claim) ?? null);
    const key = given ?? claim?.keys[0];
    if (!claim || key === undefined) {
      drop(given === null ? 'it names no key and quotes no sentence that was reviewed' : `key '${given}' is in no sentence that was reviewed`);
      continue;
    }
    const evidence = evidenceFor(key, data) as Evidence;
    const supported = f.verdict === 'supported';
    // a supported claim asks nothing of the refinement: no text of it may read as a point to act on
    const issue = supported ? '' : mask(clip(f.issue));
    const suggestion = supported ? '' : mask(clip(f.suggestion));
    const finding: Finding = { claim: claim.sentence, key, section: claim.section, line: claim.line, verdict: f.verdict, issue, suggestion, evidence };
    if (!supported) finding.revision = issueLine(finding);
    findings.push(finding);
  }
  return { findings, dropped };
}

/**
 * A claim to change as paper_refine reads a point: the section in brackets first (it places the
 * point by the section's name), then the sentence's key, the issue and the suggestion.
 */
export function issueLine(f: Pick<Finding, 'section' | 'key' | 'issue' | 'suggestion' | 'verdict'>): string {
  const where = `[${f.section ?? 'paper'}]`;
  const issue = f.issue || `the claim on ${f.key} is ${f.verdict}`;
  return `${where} ${issue} (claim anchor ${f.key})${f.suggestion ? ` — ${f.suggestion}` : ''}`;
}

/** Words of a text, for matching a quoted sentence: lower case, numbers and punctuation aside. */
const words = (s: string) => s.toLowerCase().replace(/\[[^\]]*\]/g, ' ').replace(/[^a-z]+/g, ' ').trim();

/** The reviewed sentence a quote is of: equal or contained either way, by its words. */
function matching(claims: ClaimSentence[], quote: string): ClaimSentence | null {
  const q = words(quote);
  if (q === '') return null;
  return claims.find((c) => words(c.sentence) === q) ?? claims.find((c) => words(c.sentence).includes(q) || q.includes(words(c.sentence))) ?? null;
}

/** Of the sentences carrying a key, the one the quote is of, else the first. */
function closest(claims: ClaimSentence[], quote: string): ClaimSentence | undefined {
  return matching(claims, quote) ?? claims[0];
}
