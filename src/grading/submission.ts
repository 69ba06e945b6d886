import { constants, lstatSync, type Stats } from 'node:fs';
import { join, relative } from 'node:path';
import { readdirOrNull, readRange } from '../core/paths.ts';
import { REPRODUCE_LOG, submissionDir } from '../reproduce/submission.ts';

/** What the judge is shown of a submission: its files (text of the small ones) and the log of its run. */
export type SubmissionView = { root: string | null; files: { path: string; bytes: number; text: string | null }[]; log: string | null; logPath: string | null };

/** Larger files are listed, not shown: a judge grades code and logs, not data. */
const MAX_TEXT_FILE_BYTES = 32 * 1024;
const MAX_FILES_WALKED = 2000;
const MAX_LOG_TAIL_BYTES = 16 * 1024;
const SKIPPED_DIRS = new Set(['.git', 'node_modules', '__pycache__', '.venv', 'venv', '.mypy_cache', '.pytest_cache']);
/** Files listed, never shown: the bundle's manifest holds digests the clone verified, nothing to grade. */
const LISTED_ONLY = new Set(['manifest.lock']);

/** Links are not followed anywhere in a submission: it cannot show the judge files from outside itself. */
function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** reproduce.log of the run, beside reproduce.sh in the submission root (bridge rule 1), where run_reproduce writes it. */
export function findLog(repoDir: string): string | null {
  const p = join(submissionDir(repoDir), REPRODUCE_LOG);
  return lstatOrNull(p)?.isFile() ? p : null;
}

/** `logPath`: the run's log when it is not reproduce.log at the submission root (it must be a file, not a link). */
export function readSubmission(repoDir: string, givenLog?: string): SubmissionView {
  const root = submissionDir(repoDir);
  const logPath = givenLog === undefined ? findLog(repoDir) : lstatOrNull(givenLog)?.isFile() ? givenLog : null;
  const files: SubmissionView['files'] = [];
  const walk = (dir: string) => {
    for (const name of (readdirOrNull(dir) ?? []).sort()) {
      if (files.length >= MAX_FILES_WALKED) return;
      const path = join(dir, name);
      const st = lstatOrNull(path);
      if (!st || st.isSymbolicLink()) continue;
      if (st.isDirectory()) {
        if (!SKIPPED_DIRS.has(name)) walk(path);
      } else if (st.isFile() && path !== logPath) {
        files.push({ path: relative(root, path), bytes: st.size, text: st.size <= MAX_TEXT_FILE_BYTES && !LISTED_ONLY.has(name) ? textOf(path, st.size) : null });
      }
    }
  };
  walk(root);
  return { root, files, log: logPath ? logTail(logPath) : null, logPath };
}

function textOf(path: string, size: number): string | null {
  try {
    const bytes = readRange(path, 0, size, constants.O_RDONLY | constants.O_NOFOLLOW);
    return bytes.includes(0) ? null : bytes.toString('utf8');
  } catch {
    return null;
  }
}

/** The end of the log: where a run says what it measured and how it ended. */
function logTail(path: string): string | null {
  try {
    const size = lstatOrNull(path)?.size ?? 0;
    const start = Math.max(0, size - MAX_LOG_TAIL_BYTES);
    const text = readRange(path, start, size - start, constants.O_RDONLY | constants.O_NOFOLLOW).toString('utf8');
    return start > 0 ? `[... the first ${start} bytes cut ...]\n${text}` : text;
  } catch {
    return null;
  }
}

/** Negative control: nothing at all. A judge that passes leaves of this grades what is not there. */
export const EMPTY_SUBMISSION: SubmissionView = { root: null, files: [], log: null, logPath: null };

/** Negative control: the shape of a submission with no work in it, a README and a reproduce.sh that only echoes, and its log. */
export const BOILERPLATE_SUBMISSION: SubmissionView = {
  root: null,
  files: [
    { path: 'README.md', bytes: 52, text: '# Reproduction\n\nRun `bash reproduce.sh` to reproduce.\n' },
    { path: 'reproduce.sh', bytes: 47, text: '#!/bin/sh\necho "Reproducing the paper results."\n' },
  ],
  log: 'Reproducing the paper results.\n',
  logPath: null,
};
