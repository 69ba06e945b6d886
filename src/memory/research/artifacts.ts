import { isAbsolute, relative } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { InputError } from '../../core/errors.ts';
import { hashFile } from '../../core/file-hash.ts';
import { isFileAt, resolveInside } from '../../core/paths.ts';
import { printable } from '../../core/text.ts';
import { isMapping } from '../../core/values.ts';

/** An artifact a typed entry rests on, as a caller gives it. */
export const ArtifactRefParam = T.Object(
  {
    path: T.String({ minLength: 1, description: 'the file, relative to work_dir (an absolute path must lie inside it)' }),
    sha256: T.Optional(T.String({ pattern: '^[0-9a-fA-F]{64}$', description: 'hex sha256 of the file as it was; computed from the file when omitted' })),
    role: T.Optional(T.String({ description: 'data_output, figure, log, binary, source or unknown (default)' })),
  },
  { additionalProperties: false },
);
export type ArtifactRefInput = { path: string; sha256?: string; role?: string };

/** As stored in an entry's metadata.artifact_refs: path relative to the entry's work_dir. */
export type ArtifactRef = { path: string; sha256: string | null; role: string };

export type ArtifactStatus = 'verified' | 'mismatch' | 'missing' | 'unhashed' | 'invalid';
export type ArtifactCheck = ArtifactRef & { status: ArtifactStatus; current_sha256: string | null };

/**
 * The refs to store for a write: each path made relative to `workDir` (one outside it is refused),
 * each hash taken from the caller or else from the file now. A ref with neither a hash nor a file
 * is refused: nothing could ever verify it.
 */
export async function recordArtifacts(refs: ArtifactRefInput[], workDir: string): Promise<ArtifactRef[]> {
  const out: ArtifactRef[] = [];
  for (const ref of refs) {
    const abs = resolveInside(workDir, ref.path, 'artifact path');
    const path = relative(workDir, abs);
    if (path === '') throw new InputError(`artifact path '${printable(ref.path)}' is the work directory itself`, 'name a file');
    let sha256 = ref.sha256?.toLowerCase() ?? null;
    if (sha256 === null) {
      if (!isFileAt(abs)) throw new InputError(`artifact '${printable(ref.path)}' is not a file in ${workDir}`, 'give its sha256, or write the file first');
      sha256 = await sha256File(abs);
    }
    out.push({ path, sha256, role: ref.role ?? 'unknown' });
  }
  return out;
}

/**
 * Each stored ref checked against disk: verified when the file under `workDir` has the recorded
 * sha256. Stored metadata is not trusted: malformed refs, a missing work_dir and paths leading out
 * of it come back `invalid`.
 */
export async function checkArtifacts(refs: unknown, workDir: unknown): Promise<ArtifactCheck[]> {
  if (!Array.isArray(refs)) return [];
  const out: ArtifactCheck[] = [];
  for (const raw of refs) {
    const ref = storedRef(raw);
    if (ref === null) {
      out.push({ path: String(isMapping(raw) ? raw.path : raw), sha256: null, role: 'unknown', status: 'invalid', current_sha256: null });
      continue;
    }
    const abs = typeof workDir === 'string' && isAbsolute(workDir) ? artifactPath(workDir, ref.path) : null;
    if (abs === null) {
      out.push({ ...ref, status: 'invalid', current_sha256: null });
      continue;
    }
    const current = isFileAt(abs) ? await sha256File(abs).catch(() => null) : null;
    const status: ArtifactStatus = current === null ? 'missing' : ref.sha256 === null ? 'unhashed' : current === ref.sha256 ? 'verified' : 'mismatch';
    out.push({ ...ref, status, current_sha256: current });
  }
  return out;
}

/** SHA-256 (hex) of a file, streamed. */
export async function sha256File(path: string): Promise<string> {
  return (await hashFile(path)).sha256;
}

/** A ref read back from metadata (ours, or the reference implementation's {path, sha256, role}). */
function storedRef(raw: unknown): ArtifactRef | null {
  if (!isMapping(raw) || typeof raw.path !== 'string' || raw.path === '') return null;
  const sha = typeof raw.sha256 === 'string' && /^[0-9a-fA-F]{64}$/.test(raw.sha256) ? raw.sha256.toLowerCase() : null;
  return { path: raw.path, sha256: sha, role: typeof raw.role === 'string' ? raw.role : 'unknown' };
}

/** The artifact's absolute path under `root`, or null when it would lead out of it. */
export function artifactPath(root: string, path: string): string | null {
  try {
    return resolveInside(root, path, 'artifact path');
  } catch {
    return null;
  }
}
