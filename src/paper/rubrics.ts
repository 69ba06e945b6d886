import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConflictError, NotFoundError } from '../core/errors.ts';
import { Rubric, UserRubric } from '../schema/rubric.ts';
import { cleanId } from './fewshot-ids.ts';
import { BUNDLED_RUBRIC_TEXTS } from './rubrics/bundled.ts';
import { parseRubric } from './rubrics/parse.ts';
import { isFileAt, statOrNull } from '../core/paths.ts';

/** The rubric directory of a project; a definition file there adds or overrides a rubric. */
export const RUBRIC_DIR = 'reviewer_rubrics';
/** The rubric used when SVC_RUBRIC names none (or one that does not exist). */
export const DEFAULT_RUBRIC = 'neurips';
/** Larger rubric files are refused rather than read. */
const MAX_RUBRIC_FILE_BYTES = 1024 * 1024;

export type LoadedRubric = {
  id: string;
  /** 'bundled', or the path of the user's definition file */
  source: string;
  rubric: UserRubric;
};

export type RubricCatalog = {
  /** usable rubrics: bundled ones in the spec's order, then the user's own by id */
  rubrics: LoadedRubric[];
  /** one line per user file that could not be used: `<file>: <why>` */
  problems: string[];
  /** ids with a definition file, usable or not: the rubrics the few-shot corpus accepts */
  defined: Set<string>;
  /** why a user file could not be used, by rubric id */
  broken: Map<string, string>;
};

export function rubricDir(projectRoot: string): string {
  return join(projectRoot, RUBRIC_DIR);
}

let bundledCache: LoadedRubric[] | undefined;
/** The embedded rubrics, parsed and checked once per process (a failure here is a build defect). */
export function bundledRubrics(): LoadedRubric[] {
  bundledCache ??= [...BUNDLED_RUBRIC_TEXTS].map(([id, text]) => ({ id, source: 'bundled', rubric: parseRubric(text, `(bundled ${id}.yaml)`, id, Rubric) }));
  return bundledCache;
}

/**
 * Every rubric the project can use. The user's `<id>.yaml` (or `.yml`) replaces the bundled
 * rubric of the same id; a file that cannot be used is a problem in the answer, and a bundled
 * rubric it meant to replace stays in use.
 */
export function loadRubricCatalog(projectRoot: string): RubricCatalog {
  const byId = new Map(bundledRubrics().map((r) => [r.id, r]));
  const defined = new Set(byId.keys());
  const problems: string[] = [];
  const broken = new Map<string, string>();
  for (const file of userRubricFiles(rubricDir(projectRoot), problems)) {
    defined.add(file.id);
    try {
      const rubric = parseRubric(readRubricFile(file.path), file.path, file.id, UserRubric);
      byId.set(file.id, { id: file.id, source: file.path, rubric });
    } catch (err) {
      problems.push((err as Error).message);
      broken.set(file.id, (err as Error).message);
    }
  }
  // a Map keeps insertion order: bundled ids in the spec's order, then the user's by file name
  return { rubrics: [...byId.values()], problems, defined, broken };
}

/** Definition files in the rubric directory; `.yaml` wins over `.yml` of the same id. */
function userRubricFiles(dir: string, problems: string[]): { id: string; path: string }[] {
  if (!statOrNull(dir)?.isDirectory()) return [];
  const names = readdirSync(dir).sort();
  const files: { id: string; path: string }[] = [];
  for (const name of names) {
    const m = /^(.*)\.(yaml|yml)$/.exec(name);
    if (!m?.[1]) continue;
    const path = join(dir, name);
    if (!isFileAt(path)) continue;
    const id = m[1];
    if (!/^[A-Za-z0-9_-]+$/.test(id)) {
      problems.push(`${path}: '${id}' is not a rubric id (letters, digits, _ and - only)`);
      continue;
    }
    if (m[2] === 'yml' && names.includes(`${id}.yaml`)) {
      problems.push(`${path}: ignored, ${id}.yaml defines the same rubric`);
      continue;
    }
    files.push({ id, path });
  }
  return files;
}

function readRubricFile(path: string): string {
  if (statSync(path).size > MAX_RUBRIC_FILE_BYTES) throw new Error(`${path}: larger than ${MAX_RUBRIC_FILE_BYTES / 1024} KB`);
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`${path}: cannot read: ${(err as Error).message}`);
  }
}

/** The id of a rubric that has a definition file, or 404. `raw` is cleaned as any rubric id. */
export function knownRubricId(catalog: RubricCatalog, raw: string): string {
  const id = cleanId(raw, 'rubric');
  if (!catalog.defined.has(id)) throw new NotFoundError(`unknown rubric '${id}'`, `add ${RUBRIC_DIR}/${id}.yaml or use one of: ${[...catalog.defined].sort().join(', ')}`);
  return id;
}

/** A usable rubric: 404 when it has no definition file, 409 when its only definition is broken. */
export function usableRubric(catalog: RubricCatalog, raw: string): LoadedRubric {
  const id = knownRubricId(catalog, raw);
  const found = catalog.rubrics.find((r) => r.id === id);
  if (!found) {
    throw new ConflictError(catalog.broken.get(id) ?? `rubric '${id}' cannot be loaded`, `fix ${RUBRIC_DIR}/${id}.yaml`);
  }
  return found;
}

/**
 * The rubric reviews use by default: SVC_RUBRIC when it names a usable rubric, else neurips
 * with a warning naming the rubric that was asked for.
 */
export function defaultRubric(catalog: RubricCatalog, wanted: string | undefined): { id: string; warning?: string } {
  if (wanted === undefined || wanted === '') return { id: DEFAULT_RUBRIC };
  if (catalog.rubrics.some((r) => r.id === wanted)) return { id: wanted };
  const why = catalog.defined.has(wanted) ? 'has a definition file that cannot be used' : 'is not a known rubric';
  return { id: DEFAULT_RUBRIC, warning: `SVC_RUBRIC names '${wanted}', which ${why}; using ${DEFAULT_RUBRIC}` };
}

/** One line of the rubric listing. */
export function rubricSummary(r: LoadedRubric) {
  return {
    id: r.id,
    venue: r.rubric.venue ?? null,
    domain: r.rubric.domain ?? null,
    version: r.rubric.version === undefined ? null : String(r.rubric.version),
    source: r.source,
    dimensions: r.rubric.score_dimensions.map((d) => d.name),
  };
}

/** sha256 of the rubric's definition as written (the bundled YAML, or the user's file). */
export function rubricHash(r: LoadedRubric): string {
  const text = r.source === 'bundled' ? (BUNDLED_RUBRIC_TEXTS.get(r.id) ?? '') : readFileSync(r.source);
  return new Bun.CryptoHasher('sha256').update(text).digest('hex');
}
