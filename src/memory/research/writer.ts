import { isAbsolute } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { InputError } from '../../core/errors.ts';
import { printable } from '../../core/text.ts';
import { ArtifactRefParam, type ArtifactRefInput, recordArtifacts } from './artifacts.ts';

/** Where the entry's node report is, so a reader can go from memory to the full record. */
export const NodeReportRef = T.Object(
  {
    node_id: T.String({ minLength: 1 }),
    run_id: T.Optional(T.String({ description: 'the run the node belongs to (experiments/<run_id>/<node_id>/node_report.json)' })),
  },
  { additionalProperties: false, description: 'the node report this entry was taken from' },
);

export const ArtifactRefsParam = T.Array(ArtifactRefParam, {
  default: [],
  description: 'files the entry rests on: [{path, sha256?, role?}], paths relative to work_dir; a missing sha256 is computed from the file now',
});

export const ArtifactWorkDirParam = T.Optional(
  T.String({ description: 'absolute directory artifact paths are relative to; default SVC_WORK_DIR (else /tmp/svc_work); used only with artifact_refs' }),
);

/** Reproducibility statuses; the latest event per target entry is its status. */
export const REPRO_STATUSES = ['unverified', 'rerun_passed', 'rerun_failed', 'paper_only_reproduced'] as const;

/**
 * The metadata of a typed entry: the kind's fields as given, with artifact_refs recorded (paths
 * made relative to the work directory, hashes filled in) and the work directory itself when there
 * are artifacts, since verifying them later needs it.
 */
export async function typedMetadata(fields: Record<string, unknown> & { artifact_refs?: ArtifactRefInput[] }, workDir: string): Promise<Record<string, unknown>> {
  const { artifact_refs: refs = [], ...rest } = fields;
  const given = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  if (refs.length === 0) return { ...given, artifact_refs: [] };
  if (!isAbsolute(workDir)) throw new InputError(`work_dir '${printable(workDir)}' is not an absolute path`);
  return { ...given, artifact_refs: await recordArtifacts(refs, workDir), work_dir: workDir };
}

/** True when the entry's metadata points at one artifact or more. */
export function hasArtifacts(metadata: Record<string, unknown>): boolean {
  return Array.isArray(metadata.artifact_refs) && metadata.artifact_refs.length > 0;
}
