import auditTemplate from '../prompts/replicate/rubric_audit.md' with { type: 'text' };
import { isMapping } from '../core/values.ts';
import type { ModelClient } from '../llm/client.ts';
import { fillOwnPrompt } from '../prompts/templates.ts';
import type { RubricNode } from '../schema/ors-rubric.ts';
import type { PaperSource } from './paper.ts';
import { leavesOf } from './rubric.ts';

export type LeafFlag = 'vague_qualifier' | 'no_paper_evidence' | 'duplicate' | 'unverifiable';
export type FlaggedLeaf = { leaf_id: string; flags: LeafFlag[]; reason: string };
export type AuditReport = { leaves_total: number; flagged: FlaggedLeaf[]; flagged_fraction: number; recommend_regeneration: boolean };

/** Above this share of flagged leaves a rubric is better made again than patched. */
export const REGENERATE_ABOVE = 0.2;
const VAGUE = /\b(good|reasonable|reasonably|appropriate|appropriately|significant|significantly|adequate|adequately|sufficient|sufficiently|high[- ]quality|meaningful|satisfactory)\b/i;
/** What makes a vague word measurable: a number, or a comparison a grader can check. */
const MEASURABLE = /\d|\b(at least|at most|within|equal|equals|identical|exactly|same as|matches|match|less than|more than|fewer than|greater than)\b/i;
const SAME_ENOUGH = 0.9;
const AUDIT_BATCH = 100;
const MAX_PAPER_CHARS = 120_000;

/** A leaf whose requirement leans on a vague word with nothing measurable beside it: the word, else null. */
export function vagueWord(text: string): string | null {
  const word = VAGUE.exec(text)?.[1];
  return word && !MEASURABLE.test(text) ? word : null;
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** Jaccard similarity of the two texts' word sets. */
function similarity(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}

/** The deterministic flags: vague qualifiers, and a leaf near-identical to an earlier one (the later is the duplicate). */
export function deterministicFlags(leaves: RubricNode[]): Map<string, { flags: LeafFlag[]; reasons: string[] }> {
  const out = new Map<string, { flags: LeafFlag[]; reasons: string[] }>();
  const add = (id: string, flag: LeafFlag, reason: string) => {
    const e = out.get(id) ?? { flags: [], reasons: [] };
    e.flags.push(flag);
    e.reasons.push(reason);
    out.set(id, e);
  };
  const seen: { id: string; words: Set<string> }[] = [];
  for (const leaf of leaves) {
    const vague = vagueWord(leaf.requirements);
    if (vague) add(leaf.id, 'vague_qualifier', `"${vague}" without a measurable criterion`);
    const mine = words(leaf.requirements);
    const twin = seen.find((s) => similarity(s.words, mine) >= SAME_ENOUGH);
    if (twin) add(leaf.id, 'duplicate', `near-identical to ${twin.id}`);
    seen.push({ id: leaf.id, words: mine });
  }
  return out;
}

type ModelVerdict = { id: string; no_paper_evidence: boolean; unverifiable: boolean; reason: string };

/**
 * The auditor's flags: whether the paper backs each leaf and whether a grader could decide it, in
 * batches asked at once. Every leaf of a batch must be answered, by its id, once.
 */
async function modelFlags(client: Pick<ModelClient, 'completeJson'>, paper: PaperSource, leaves: RubricNode[], signal?: AbortSignal): Promise<ModelVerdict[]> {
  const text = paper.text.trim().slice(0, MAX_PAPER_CHARS);
  const batches: RubricNode[][] = [];
  for (let i = 0; i < leaves.length; i += AUDIT_BATCH) batches.push(leaves.slice(i, i + AUDIT_BATCH));
  const answers = await Promise.all(
    batches.map(async (batch) => {
      const ids = batch.map((l) => l.id);
      const system = fillOwnPrompt(auditTemplate, { paper: text, count: batch.length, leaves: batch.map((l) => `- ${l.id}: ${l.requirements}`).join('\n') }, 'replicate/rubric_audit');
      const answer = await client.completeJson<{ leaves: ModelVerdict[] }>(
        {
          role: 'rubric_audit',
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: 'Audit every leaf. Answer with the JSON object only.' },
          ],
          temperature: 0,
          meta: { phase: 'paper', skill: 'replicate-skill', component: 'rubric', op: 'rubric_audit' },
          signal,
        },
        (v) => verdictsProblem(v, ids),
      );
      return answer.leaves;
    }),
  );
  return answers.flat();
}

function verdictsProblem(v: unknown, ids: string[]): string | null {
  if (!isMapping(v) || !Array.isArray(v.leaves)) return 'the answer is not an object with leaves';
  const wanted = new Set(ids);
  const got = new Set<string>();
  for (const [i, e] of v.leaves.entries()) {
    if (!isMapping(e) || typeof e.id !== 'string') return `leaves[${i}] has no id`;
    if (!wanted.has(e.id)) return `leaves[${i}].id '${e.id}' is not a leaf of the list`;
    if (got.has(e.id)) return `the leaf ${e.id} is answered twice`;
    if (typeof e.no_paper_evidence !== 'boolean' || typeof e.unverifiable !== 'boolean') return `leaves[${i}] needs no_paper_evidence and unverifiable as true or false`;
    got.add(e.id);
  }
  const missing = ids.filter((id) => !got.has(id));
  return missing.length ? `${missing.length} leaves are not answered, the first ${missing[0]}` : null;
}

export async function auditRubric(client: Pick<ModelClient, 'completeJson'>, root: RubricNode, paper: PaperSource, signal?: AbortSignal): Promise<AuditReport> {
  const leaves = leavesOf(root);
  const found = deterministicFlags(leaves);
  for (const v of await modelFlags(client, paper, leaves, signal)) {
    const e = found.get(v.id) ?? { flags: [], reasons: [] };
    const reason = typeof v.reason === 'string' ? v.reason.trim() : '';
    if (v.no_paper_evidence) e.flags.push('no_paper_evidence');
    if (v.unverifiable) e.flags.push('unverifiable');
    if ((v.no_paper_evidence || v.unverifiable) && reason) e.reasons.push(reason);
    if (e.flags.length) found.set(v.id, e);
  }
  const flagged = leaves.flatMap((l) => {
    const e = found.get(l.id);
    return e ? [{ leaf_id: l.id, flags: e.flags, reason: e.reasons.join('; ') }] : [];
  });
  const fraction = leaves.length ? flagged.length / leaves.length : 0;
  return { leaves_total: leaves.length, flagged, flagged_fraction: Math.round(fraction * 10_000) / 10_000, recommend_regeneration: fraction > REGENERATE_ABOVE };
}
