/**
 * Where a reproduction's repository is (bridge rule 1): an agent that built it in a nested
 * `submission/` directory has its reproduce.sh run there, next to its sources; a stray top-level
 * reproduce.sh beside that directory is ignored.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, NotFoundError } from '../core/errors.ts';
import { isFileAt, statOrNull } from '../core/paths.ts';
import { printable } from '../core/text.ts';

export const REPRODUCE_SCRIPT = 'reproduce.sh';
export const REPRODUCE_LOG = 'reproduce.log';
export const SUBMISSION_DIR = 'submission';

/**
 * The submission root of `repoDir`: its submission/ directory when there is one, else itself. A
 * submission/ that is a link is refused: what runs and what is graded stay inside the submission.
 */
export function submissionDir(repoDir: string): string {
  const nested = join(repoDir, SUBMISSION_DIR);
  const st = lstatSync(nested, { throwIfNoEntry: false });
  if (st?.isSymbolicLink()) throw new InputError(`${printable(nested)} is a link: a submission is not followed out of its directory`, 'build the repository in submission/ itself, or at the top of repo_dir');
  return st?.isDirectory() ? nested : repoDir;
}

/** The reproduce.sh at the submission root, or null when there is none. */
export function reproduceScriptAt(repoDir: string): string | null {
  const path = join(submissionDir(repoDir), REPRODUCE_SCRIPT);
  return isFileAt(path) ? path : null;
}

/** The submission root a reproduction runs in: it must hold reproduce.sh, else NotFoundError. */
export function submissionRoot(repoDir: string): string {
  if (!statOrNull(repoDir)?.isDirectory()) throw new NotFoundError(`repo_dir ${printable(repoDir)} is not a directory`, 'give the directory the reproduction was built in');
  const root = submissionDir(repoDir);
  if (isFileAt(join(root, REPRODUCE_SCRIPT))) return root;
  const where = root === repoDir ? REPRODUCE_SCRIPT : `${SUBMISSION_DIR}/${REPRODUCE_SCRIPT}`;
  throw new NotFoundError(`repo_dir ${printable(repoDir)} has no ${where}`, 'build the reproduction first (build_reproduce_sh), or give the directory that holds it');
}
