import { type ArtifactCheck, type ArtifactStatus, checkArtifacts } from './artifacts.ts';
import type { MemoryEntry } from './entries.ts';
import type { NodeMemory } from './node-memory.ts';

export type ContextClaim = {
  entry_id: string;
  node_id: string;
  kind: string;
  text: string;
  metadata: Record<string, unknown>;
  artifacts: ArtifactCheck[];
  /** the latest reproducibility event about the entry, or null */
  repro_status: string | null;
};

export type VerifiedContext = {
  purpose: string;
  ancestor_ids: string[];
  /** results whose every artifact exists with its recorded sha256 and that no rerun refuted; reproduced ones first */
  verified: ContextClaim[];
  /** results that cannot be used as evidence, each with the reasons */
  unverified: (ContextClaim & { reasons: string[] })[];
  /** failure cases: what did not work, for an honest limitations section */
  limitations: { entry_id: string; node_id: string; text: string }[];
};

/**
 * Evidence for writing about the ancestors' work (a paper, figures): their experiment results,
 * each checked against disk now. Only a result with at least one artifact, all of them present
 * with the recorded sha256, counts as verified; one whose latest reproducibility event is
 * rerun_failed does not. Entries come in ancestor order (root first), oldest first within a node;
 * reproduced results move to the front. `limit` caps the verified list.
 */
export async function buildVerifiedContext(memory: NodeMemory, ancestorIds: string[], purpose: string, limit: number | null): Promise<VerifiedContext> {
  const entries = await memory.list(ancestorIds, ['experiment_result', 'failure_case', 'reproducibility_event']);
  const order = new Map(ancestorIds.map((id, i) => [id, i]));
  entries.sort((a, b) => (order.get(a.node_id) ?? 0) - (order.get(b.node_id) ?? 0) || a.ts - b.ts);
  const repro = latestReproStatus(entries);
  const verified: ContextClaim[] = [];
  const unverified: VerifiedContext['unverified'] = [];
  for (const e of entries.filter((x) => x.kind === 'experiment_result')) {
    const claim: ContextClaim = { ...pick(e), artifacts: await checkArtifacts(e.metadata.artifact_refs, e.metadata.work_dir), repro_status: repro.get(e.entry_id) ?? null };
    const reasons = problems(claim);
    if (reasons.length === 0) verified.push(claim);
    else unverified.push({ ...claim, reasons });
  }
  verified.sort((a, b) => Number(b.repro_status === 'rerun_passed') - Number(a.repro_status === 'rerun_passed'));
  return {
    purpose,
    ancestor_ids: ancestorIds,
    verified: limit === null ? verified : verified.slice(0, limit),
    unverified,
    limitations: entries.filter((e) => e.kind === 'failure_case').map((e) => ({ entry_id: e.entry_id, node_id: e.node_id, text: e.text })),
  };
}

/** What an artifact of each status but verified says against its result. */
const ARTIFACT_PROBLEMS: Readonly<Record<ArtifactStatus, string | null>> = { verified: null, mismatch: 'sha256 differs from the recorded one', missing: 'missing', unhashed: 'no sha256 recorded', invalid: "not a valid reference inside the entry's work_dir" };

function problems(c: ContextClaim): string[] {
  const out: string[] = [];
  if (c.artifacts.length === 0) out.push('no artifacts recorded');
  for (const a of c.artifacts) if (ARTIFACT_PROBLEMS[a.status]) out.push(`${a.path}: ${ARTIFACT_PROBLEMS[a.status]}`);
  if (c.repro_status === 'rerun_failed') out.push('a rerun failed to reproduce it');
  return out;
}

/** The status of each target in its latest event (events are in ancestor order, then by time). */
function latestReproStatus(entries: MemoryEntry[]): Map<string, string> {
  const latest = new Map<string, { status: string; ts: number }>();
  for (const e of entries) {
    // entries migrated from the reference implementation name these repro_target_id and repro_status
    const target = e.metadata.target_entry_id ?? e.metadata.repro_target_id;
    const status = e.metadata.status ?? e.metadata.repro_status;
    if (e.kind !== 'reproducibility_event' || typeof target !== 'string' || typeof status !== 'string') continue;
    const seen = latest.get(target);
    if (!seen || e.ts >= seen.ts) latest.set(target, { status, ts: e.ts });
  }
  return new Map([...latest].map(([k, v]) => [k, v.status]));
}

function pick(e: MemoryEntry) {
  return { entry_id: e.entry_id, node_id: e.node_id, kind: e.kind, text: e.text, metadata: e.metadata };
}
