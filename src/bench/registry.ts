import { existsSync, mkdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { type Env, envValue } from '../core/config/env-vars.ts';
import { ConflictError, InputError, NotFoundError } from '../core/errors.ts';
import { isSafeId } from '../core/paths.ts';
import { printable } from '../core/text.ts';
import { ImportBody, type LicenseAssessment, type ManifestEntry, MetadataPatch } from '../schema/bench-api.ts';
import { classifyLicense, normalizeLicense } from './license.ts';
import { type ManifestLine, readManifest, updateManifest } from './manifest.ts';
import { requirePaperId, sanitizePaperId } from './paper-id.ts';
import { discardStaging, installPdfs, stagePdfs } from './paper-pdfs.ts';
import { type ImportContext, importPdfs } from './paper-sources.ts';
import { emptyTrash, moveToTrash } from './trash.ts';

/** The paper registry: SVC_PAPER_REGISTRY_DIR, else `<workspace>/paper_registry`. */
export function paperRegistryDir(env: Env, workspaceRoot: string): string {
  const set = envValue(env, 'SVC_PAPER_REGISTRY_DIR');
  return set ? resolve(workspaceRoot, set) : join(workspaceRoot, 'paper_registry');
}

/** An import whose paper_id is taken: the answer carries the paper that has it. */
export class DuplicatePaperError extends ConflictError {
  constructor(readonly existing: ManifestEntry) {
    super(`paper ${existing.paper_id} is already in the registry`, 'import it with overwrite to replace it, or give another paper_id');
    this.name = 'DuplicatePaperError';
  }
}

/**
 * The papers of the reproducibility benchmark: `manifest.jsonl` (one entry a line, keys sorted,
 * rewritten atomically under a lock) and `papers/<paper_id>/` (paper.pdf, ad.pdf, ae.pdf, runs/).
 * The files are the state; nothing is held but a parse of the manifest while it is unchanged.
 */
export class PaperRegistry {
  private constructor(readonly dir: string) {}

  /** The registry at `dir`; the directory is made by the first write, not here. */
  static open(dir: string): PaperRegistry {
    return new PaperRegistry(resolve(dir));
  }

  /** Every paper, in manifest order; the array is shared with the cache, so callers do not change it. */
  list(): ManifestEntry[] {
    return readManifest(this.dir).entries;
  }

  get(paperId: string): ManifestEntry | null {
    return readManifest(this.dir).byId.get(paperId) ?? null;
  }

  /**
   * Registers a paper (see importPdfs for where its PDF comes from). A taken paper_id is refused
   * with DuplicatePaperError unless `overwrite`; a refused import writes nothing.
   */
  async import(body: ImportBody, env: Env, ctx: ImportContext = {}): Promise<ManifestEntry> {
    checkInput(ImportBody, body, 'import');
    const paperId = sanitizePaperId(body.paper_id?.trim() ? body.paper_id : defaultIdSource(body));
    const known = this.get(paperId);
    // before any download: a duplicate is refused as cheaply as it is known
    if (known && !body.overwrite) throw new DuplicatePaperError(known);
    const pdfs = await importPdfs(body, env, ctx);
    const staging = pdfs.length > 0 ? stagePdfs(this.dir, pdfs) : null;
    try {
      return updateManifest(this.dir, (m) => {
        const existing = m.byId.get(paperId);
        if (existing && !body.overwrite) throw new DuplicatePaperError(existing);
        const entry = newEntry(body, paperId, this.paperDir(paperId));
        installPdfs(staging, entry.registry_dir, pdfs.map((p) => p.name));
        return { lines: existing ? replaced(m.lines, entry) : [...m.lines, { entry }], result: entry };
      });
    } finally {
      discardStaging(staging);
    }
  }

  /** Removes the paper's manifest line and directory (its runs too; see trash.ts); a paper not there is no error. */
  delete(paperId: string): { deleted: boolean; paper_id: string } {
    const id = requirePaperId(paperId);
    const paperDir = this.paperDir(id);
    if (!existsSync(this.dir)) return { deleted: false, paper_id: id };
    const result = updateManifest(this.dir, (m) => {
      const hadDir = moveToTrash(this.dir, paperDir);
      const lines = m.lines.filter((l) => !('entry' in l && l.entry.paper_id === id));
      const hadLine = lines.length !== m.lines.length;
      return { lines: hadLine ? lines : null, result: { deleted: hadLine || hadDir, paper_id: id } };
    });
    // the files go after the lock is released: other registry calls need not wait for them
    emptyTrash(this.dir);
    return result;
  }

  /** Changes the writable fields given; a new `license` is classified again. paper_id never changes. */
  patch(paperId: string, patch: MetadataPatch): ManifestEntry {
    const id = requirePaperId(paperId);
    checkInput(MetadataPatch, patch, 'metadata');
    if ('paper_id' in patch && patch.paper_id !== id) throw new InputError('paper_id cannot be changed', 'delete the paper and import it again under the new id');
    if (!existsSync(this.dir)) throw notFound(id);
    return updateManifest(this.dir, (m) => {
      const entry = m.byId.get(id);
      if (!entry) throw notFound(id);
      const next = patched(entry, patch);
      return { lines: replaced(m.lines, next), result: next };
    });
  }

  license(paperId: string): LicenseAssessment {
    const entry = this.get(requirePaperId(paperId));
    if (!entry) throw notFound(paperId);
    return entry.license_assessment ?? classifyLicense(entry.license);
  }

  /** The paper's PDF, or null when it has none (a run needs one). */
  paperPdf(paperId: string): string | null {
    const pdf = join(this.paperDir(requirePaperId(paperId)), 'paper.pdf');
    return existsSync(pdf) ? pdf : null;
  }

  /** `<registry>/papers/<paper_id>/runs/<job_id>/`, created. */
  runDir(paperId: string, jobId: string): string {
    if (!isSafeId(jobId)) throw new InputError(`'${printable(jobId)}' is not a job id`, 'a job id is letters, digits, dots, underscores or hyphens');
    const dir = join(this.paperDir(requirePaperId(paperId)), 'runs', jobId);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  private paperDir(id: string): string {
    return join(this.dir, 'papers', id);
  }
}

/**
 * What a paper id is made from when none is given: the source, or for a file (a local or uploaded
 * PDF) its name without `.pdf`, since a whole path cut to 64 characters would name the directories.
 */
function defaultIdSource(body: ImportBody): string {
  const source = body.source.trim();
  if (body.source_type === 'local' || body.source_type === 'upload') return basename(source).replace(/\.pdf$/i, '');
  return source;
}

function newEntry(body: ImportBody, paperId: string, registryDir: string): ManifestEntry {
  return {
    paper_id: paperId,
    title: body.title.trim(),
    authors: body.authors ?? [],
    venue: body.venue ?? '',
    year: body.year ?? null,
    source_type: body.source_type,
    source: body.source.trim(),
    artifact_url: body.artifact_url ?? '',
    license: normalizeLicense(body.license),
    license_assessment: classifyLicense(body.license),
    imported_at: new Date().toISOString(),
    registry_dir: registryDir,
  };
}

const WRITABLE = ['title', 'authors', 'venue', 'year', 'artifact_url', 'source', 'source_type'] as const;

function patched(entry: ManifestEntry, patch: MetadataPatch): ManifestEntry {
  const next: ManifestEntry = { ...entry };
  for (const key of WRITABLE) if (patch[key] !== undefined) Object.assign(next, { [key]: patch[key] });
  if (patch.license !== undefined) {
    next.license = normalizeLicense(patch.license);
    next.license_assessment = classifyLicense(patch.license);
  }
  return next;
}

function replaced(lines: ManifestLine[], entry: ManifestEntry): ManifestLine[] {
  return lines.map((l) => ('entry' in l && l.entry.paper_id === entry.paper_id ? { entry } : l));
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`no paper ${id} in the registry`, 'list the papers with GET /api/bench/papers or svc bench list');
}

/** The same check the routes make, for callers that are not routes (the CLI). */
function checkInput(schema: typeof ImportBody | typeof MetadataPatch, value: unknown, what: string): void {
  const first = Value.Errors(schema, value).First();
  if (first) throw new InputError(`${what}${first.path.replaceAll('/', '.')}: ${first.message}`);
}
