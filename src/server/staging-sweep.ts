import { STAGING_MAX_AGE_MS, sweepStaged } from '../core/checkpoint/upload-staging.ts';
import { oneLine } from '../core/errors.ts';
import { logFor } from '../core/log.ts';

/** Removes the wizard's staged uploads no launch took within a week, saying how many; a failure is a warning, never a stop. */
export function sweepStagedUploads(workspaceRoot: string, keep?: string): void {
  try {
    const removed = sweepStaged(workspaceRoot, { keep });
    if (removed.length > 0) logFor('svc viz').info(`removed ${removed.length} staged upload${removed.length === 1 ? '' : 's'} no launch took within ${STAGING_MAX_AGE_MS / 86_400_000} days`);
  } catch (err) {
    logFor('svc viz').warn(`staged uploads not swept: ${oneLine(err)}`);
  }
}
