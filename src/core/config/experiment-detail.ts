import { lstatSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { NotFoundError, TooLargeError } from '../errors.ts';
import { readdirOrNull, resolveInside } from '../paths.ts';
import { experimentLine, experimentPartition } from './experiment-md.ts';

/** What the wizard shows of an experiment description. */
export type ExperimentFields = {
  title: string | null;
  goal: string | null;
  metric: string | null;
  partition: string | null;
};

/** A file a run gets to see: in uploads/, or beside the experiment file and named by it. */
export type ProvidedFile = {
  name: string;
  /** relative to the directory of the experiment file */
  path: string;
  size: number;
  /** the experiment text names it */
  mentioned: boolean;
};

export type ExperimentDetail = ExperimentFields & { provided_files: ProvidedFile[]; text: string };

/** An experiment file larger than this is not a description someone wrote. */
export const MAX_EXPERIMENT_BYTES = 4 * 1024 * 1024;
/** uploads/ listings stop here, so a huge data directory cannot stall the wizard. */
const MAX_LISTED_UPLOADS = 2000;

/** The text of the first `# ` heading. */
export function experimentTitle(markdown: string): string | null {
  // an optional closing run of #s needs a space before it, so `# C#` keeps its name
  const m = /^#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/m.exec(markdown);
  return m?.[1] ?? null;
}

/** The first paragraph under `## Research Goal` or `## Goal` (the `heading`), else the first paragraph that is not a heading. */
export function experimentGoal(markdown: string, heading = /^#{1,6}\s*(research\s+)?goal\s*:?\s*$/i): string | null {
  const lines = markdown.split(/\r?\n/).map((l) => l.trim());
  const at = lines.findIndex((l) => heading.test(l));
  const after = at >= 0 ? lines.slice(at + 1) : lines;
  const start = after.findIndex((l) => l !== '' && !l.startsWith('#'));
  if (start < 0) return null;
  const end = after.findIndex((l, i) => i > start && (l === '' || l.startsWith('#')));
  return after.slice(start, end < 0 ? undefined : end).join(' ');
}

/** The value of a `Metric:`, `Metrics:` or `Primary metric:` line. */
export function experimentMetric(markdown: string): string | null {
  return experimentLine(markdown, '(?:primary\\s+)?metrics?');
}

export function experimentFields(markdown: string): ExperimentFields {
  return {
    title: experimentTitle(markdown),
    goal: experimentGoal(markdown),
    metric: experimentMetric(markdown),
    partition: experimentPartition(markdown),
  };
}

/**
 * File names the text mentions: words with an extension, bare or in backticks, optionally with
 * directories (`data/input.csv`). URLs are not file names.
 */
export function mentionedFileNames(markdown: string): string[] {
  const withoutUrls = markdown.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ');
  const names = new Set<string>();
  for (const m of withoutUrls.matchAll(/(?<![\w./-])((?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z0-9]{1,10})(?![\w/-])/g)) {
    if (m[1]) names.add(m[1]);
  }
  return [...names];
}

/**
 * The experiment file `file` parsed for the wizard, with the files a run would be given:
 * everything in uploads/ beside it, and the files the text names that exist there or beside it.
 */
export function experimentDetail(file: string): ExperimentDetail {
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new NotFoundError(`${file} is not a file`);
    size = st.size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError(`no experiment file: ${file} does not exist`);
    throw err;
  }
  if (size > MAX_EXPERIMENT_BYTES) throw new TooLargeError(`${file} is ${size} bytes; an experiment file is at most ${MAX_EXPERIMENT_BYTES}`);
  const text = readFileSync(file, 'utf8');
  return { ...experimentFields(text), provided_files: providedFiles(dirname(file), basename(file), text), text };
}

function providedFiles(dir: string, self: string, markdown: string): ProvidedFile[] {
  const uploads = listUploadedFiles(join(dir, 'uploads'));
  const byPath = new Map(uploads.map((f) => [f.path, { ...f, mentioned: false }]));
  for (const name of mentionedFileNames(markdown)) {
    for (const rel of [join('uploads', name), name]) {
      const found = byPath.get(rel);
      if (found) {
        found.mentioned = true;
        break;
      }
      const size = regularFileSize(dir, rel);
      if (size !== null && rel !== self) {
        byPath.set(rel, { name: basename(rel), path: rel, size, mentioned: true });
        break;
      }
    }
  }
  return [...byPath.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/** Size of the regular file `rel` inside `dir`, or null: missing, not a file, or leading outside. */
function regularFileSize(dir: string, rel: string): number | null {
  try {
    const st = statSync(resolveInside(dir, rel));
    return st.isFile() ? st.size : null;
  } catch {
    return null;
  }
}

/** Regular files below uploads/, hidden names (our temp files among them) left out; symlinks are not followed. */
function listUploadedFiles(uploads: string): Omit<ProvidedFile, 'mentioned'>[] {
  const base = dirname(uploads);
  const found: Omit<ProvidedFile, 'mentioned'>[] = [];
  const walk = (dir: string) => {
    for (const name of readdirOrNull(dir)?.sort() ?? []) {
      if (found.length >= MAX_LISTED_UPLOADS) return;
      if (name.startsWith('.')) continue;
      const full = join(dir, name);
      const st = lstatSync(full, { throwIfNoEntry: false });
      if (st?.isDirectory()) walk(full);
      else if (st?.isFile()) found.push({ name, path: relative(base, full), size: st.size });
    }
  };
  // uploads/ itself a symlink could lead anywhere
  if (lstatSync(uploads, { throwIfNoEntry: false })?.isDirectory()) walk(uploads);
  return found;
}
