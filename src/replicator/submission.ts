import { join } from 'node:path';
import { isFileAt, statOrNull } from '../core/paths.ts';

export const REPRODUCE_SH = 'reproduce.sh';
/** The nested directory an agent may build its repository in (bench bridge rule 1). */
export const NESTED_SUBMISSION = 'submission';

/**
 * Where reproduce.sh belongs: a nested submission/ directory when the repository was built there,
 * so the script runs next to its sources; a stray top-level copy is then ignored.
 */
export function submissionRoot(outputDir: string): string {
  const nested = join(outputDir, NESTED_SUBMISSION);
  return statOrNull(nested)?.isDirectory() ? nested : outputDir;
}

/** The reproduce.sh at the submission root, or null when there is none. */
export function reproduceShAt(outputDir: string): string | null {
  const path = join(submissionRoot(outputDir), REPRODUCE_SH);
  return isFileAt(path) ? path : null;
}
