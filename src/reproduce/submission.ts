/**
 * Where a reproduction runs (bridge rule 1): an agent that built its repository in a nested
 * `submission/` directory runs it there, next to its sources; a stray top-level reproduce.sh beside
 * that directory is ignored.
 */
import { join } from 'node:path';
import { NotFoundError } from '../core/errors.ts';
import { isFileAt, statOrNull } from '../core/paths.ts';
import { printable } from '../core/text.ts';

export const REPRODUCE_SCRIPT = 'reproduce.sh';
export const REPRODUCE_LOG = 'reproduce.log';
export const SUBMISSION_DIR = 'submission';

/** The submission root of `repoDir`: its submission/ when that holds reproduce.sh, else itself when it does; else NotFoundError. */
export function submissionRoot(repoDir: string): string {
  if (!statOrNull(repoDir)?.isDirectory()) throw new NotFoundError(`repo_dir ${printable(repoDir)} is not a directory`, 'give the directory the reproduction was built in');
  const nested = join(repoDir, SUBMISSION_DIR);
  if (isFileAt(join(nested, REPRODUCE_SCRIPT))) return nested;
  if (isFileAt(join(repoDir, REPRODUCE_SCRIPT))) return repoDir;
  throw new NotFoundError(`repo_dir ${printable(repoDir)} has no ${REPRODUCE_SCRIPT} (nor ${SUBMISSION_DIR}/${REPRODUCE_SCRIPT})`, 'build the reproduction first (build_reproduce_sh), or give the directory that holds it');
}
