import { isAbsolute, relative } from 'node:path';
import { type Static, Type as T } from '@sinclair/typebox';
import { isFileAt } from '../../core/paths.ts';
import { type ArtifactRef, artifactPath, sha256File } from './artifacts.ts';

const Text = T.Optional(T.Union([T.String(), T.Null()]));
const Loose = { additionalProperties: true } as const;

/**
 * The parts of a node_report.json that memory uses (the whole record is described in the wire
 * formats); other keys are allowed and ignored. Only node_id and status are required, so the stub a
 * failed report build leaves ({status: "error"}) still consolidates into a failure case.
 */
export const NodeReport = T.Object(
  {
    node_id: T.String({ minLength: 1 }),
    status: T.String({ description: 'success, failed, error, ...' }),
    files_changed: T.Optional(
      T.Object(
        {
          added: T.Optional(T.Array(T.Object({ path: T.String(), sha256: T.Optional(T.String()) }, Loose))),
          modified: T.Optional(T.Array(T.Object({ path: T.String(), sha256_after: T.Optional(T.String()) }, Loose))),
        },
        Loose,
      ),
    ),
    metrics: T.Optional(T.Record(T.String(), T.Unknown())),
    artifacts: T.Optional(T.Array(T.Object({ filename: T.String(), role: T.Optional(T.String()), sha256: T.Optional(T.String()) }, Loose))),
    self_assessment: T.Optional(T.Object({ headline: Text, concerns: T.Optional(T.Array(T.String())) }, Loose)),
    next_steps_hints: T.Optional(T.Array(T.String())),
    what_was_done: Text,
    delta_vs_parent: Text,
    evaluator_reason: Text,
    build_command: Text,
    run_command: Text,
  },
  { ...Loose, description: 'the node_report.json record of the node' },
);
export type NodeReport = Static<typeof NodeReport>;

/**
 * The artifacts a report points at, relative to the node's work directory: changed files with the
 * hash the report recorded (after the change), then the classified artifacts. An artifact the
 * report gives no hash for is hashed from disk when `hashMissing` (recording a baseline), else left
 * unhashed (auditing: a hash taken now would only confirm itself). De-duplicated by path.
 */
export async function reportArtifacts(report: NodeReport, workDir: string, hashMissing: boolean): Promise<ArtifactRef[]> {
  const byPath = new Map<string, ArtifactRef>();
  for (const f of report.files_changed?.added ?? []) byPath.set(f.path, { path: f.path, sha256: hex(f.sha256), role: 'source' });
  for (const f of report.files_changed?.modified ?? []) if (!byPath.has(f.path)) byPath.set(f.path, { path: f.path, sha256: hex(f.sha256_after), role: 'source' });
  for (const a of report.artifacts ?? []) {
    const path = isAbsolute(a.filename) ? relative(workDir, a.filename) : a.filename;
    const known = byPath.get(path);
    if (known) {
      if (a.role && known.role === 'source') known.role = a.role;
      continue;
    }
    let sha256 = hex(a.sha256);
    const abs = artifactPath(workDir, path);
    if (sha256 === null && hashMissing && abs !== null && isFileAt(abs)) sha256 = await sha256File(abs);
    byPath.set(path, { path, sha256, role: a.role ?? 'unknown' });
  }
  return [...byPath.values()];
}

function hex(v: string | undefined): string | null {
  return v !== undefined && /^[0-9a-fA-F]{64}$/.test(v) ? v.toLowerCase() : null;
}
