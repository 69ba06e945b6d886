import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConflictError, NotFoundError } from '../core/errors.ts';
import { resolveInside } from '../core/paths.ts';
import { cleanId } from './fewshot-ids.ts';
import { SOURCE_KEY } from './fewshot-record.ts';
import { rubricDir } from './rubrics.ts';

/** Example records larger than this are reported, not parsed. */
const MAX_RECORD_BYTES = 5 * 1024 * 1024;

export type FewshotExample = {
  id: string;
  /** the review record as stored */
  record: Record<string, unknown>;
  has_text: boolean;
  has_pdf: boolean;
  /** the record's `_source` marker, null when it has none */
  source: string | null;
};

/**
 * The examples directory of a (known, cleaned) rubric id:
 * `<project>/reviewer_rubrics/fewshot_examples/<rubric>`. A symlink leading out is refused.
 */
export function examplesDir(projectRoot: string, rubricId: string): string {
  const dir = resolveInside(rubricDir(projectRoot), join('fewshot_examples', rubricId), 'few-shot examples directory');
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new ConflictError(`${dir} is a file, not a directory of examples`, 'move it away');
  return dir;
}

/**
 * The examples of a rubric: every `<id>.json` holding a JSON object, with its optional
 * `<id>.txt` excerpt and `<id>.pdf`. Other files (README.md, notes) are not examples; a
 * `.json` that cannot be read as a record is a problem in the answer.
 */
export function listExamples(projectRoot: string, rubricId: string): { examples: FewshotExample[]; problems: string[] } {
  const dir = examplesDir(projectRoot, rubricId);
  const examples: FewshotExample[] = [];
  const problems: string[] = [];
  if (!existsSync(dir)) return { examples, problems };
  const names = new Set(readdirSync(dir));
  for (const name of [...names].sort()) {
    const id = name.endsWith('.json') ? name.slice(0, -5) : '';
    if (!/^[A-Za-z0-9_-]+$/.test(id) || !isRegularFile(join(dir, name))) continue;
    const record = readRecord(join(dir, name), problems);
    if (!record) continue;
    const marker = record[SOURCE_KEY];
    examples.push({
      id,
      record,
      has_text: names.has(`${id}.txt`) && isRegularFile(join(dir, `${id}.txt`)),
      has_pdf: names.has(`${id}.pdf`) && isRegularFile(join(dir, `${id}.pdf`)),
      source: typeof marker === 'string' ? marker : null,
    });
  }
  return { examples, problems };
}

function readRecord(path: string, problems: string[]): Record<string, unknown> | null {
  try {
    if (lstatSync(path).size > MAX_RECORD_BYTES) {
      problems.push(`${path}: larger than ${MAX_RECORD_BYTES / 1024 / 1024} MB, not read`);
      return null;
    }
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    problems.push(`${path}: not a JSON object`);
  } catch (err) {
    problems.push(`${path}: ${(err as Error).message.split('\n')[0]}`);
  }
  return null;
}

/** The files of an example: `<id>.<anything>` (json, txt, pdf, or any other extension). */
export function exampleFiles(dir: string, exampleId: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.startsWith(`${exampleId}.`) && !lstatOrNull(join(dir, n))?.isDirectory())
    .sort();
}

/** Remove every file of an example; 404 when it has none. Returns the names removed. */
export function deleteExample(projectRoot: string, rubricId: string, rawExample: string): { id: string; deleted: string[] } {
  const id = cleanId(rawExample, 'example');
  const dir = examplesDir(projectRoot, rubricId);
  const files = exampleFiles(dir, id);
  if (files.length === 0) throw new NotFoundError(`no example '${id}' for rubric ${rubricId}`);
  for (const name of files) rmSync(join(dir, name), { force: true });
  return { id, deleted: files };
}

/** A regular file, not a symlink: a link could show a file from anywhere as an example. */
const isRegularFile = (path: string) => lstatOrNull(path)?.isFile() ?? false;

/** What is at `path` itself, a link not followed; null when nothing can be examined there. */
function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
