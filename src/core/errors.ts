/**
 * An error the user can act on: one line saying what is wrong, and optionally how to fix it.
 * Anything else that reaches the top level is a bug and is reported as such.
 */
export class SvcError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
    /** 2 = bad usage or input, 1 = the operation failed */
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = 'SvcError';
  }
}

/** A kind of SvcError (or of a narrower `base`): a class whose errors are named `name` and exit with `exitCode` unless the base sets its own. */
export function errorKind(name: string, exitCode: 1 | 2, base: new (message: string, hint?: string, exitCode?: 1 | 2) => SvcError = SvcError) {
  return class extends base {
    constructor(message: string, hint?: string) {
      super(message, hint, exitCode);
      this.name = name;
    }
  };
}

/** Bad input from the user: a flag, an argument or a file they gave us. */
export const InputError = errorKind('InputError', 2);
export type InputError = InstanceType<typeof InputError>;

/** A named thing (checkpoint, file, rubric) that does not exist. */
export const NotFoundError = errorKind('NotFoundError', 2);
export type NotFoundError = InstanceType<typeof NotFoundError>;

/** The request clashes with the current state: a running checkpoint, no active checkpoint, an existing name. */
export const ConflictError = errorKind('ConflictError', 1);
export type ConflictError = InstanceType<typeof ConflictError>;

/** Input over a size limit. */
export const TooLargeError = errorKind('TooLargeError', 2);
export type TooLargeError = InstanceType<typeof TooLargeError>;

/** A tool or service svc needs is missing or not reachable (latexmk, nvidia-smi, ssh, a server). */
export const UnavailableError = errorKind('UnavailableError', 1);
export type UnavailableError = InstanceType<typeof UnavailableError>;

/** A file that exists but is not the record it should be (not JSON, not an object). */
export const InvalidRecordError = errorKind('InvalidRecordError', 1);
export type InvalidRecordError = InstanceType<typeof InvalidRecordError>;

/** A service svc called answered, but not with what was asked for (a model's answer that is no JSON). */
export const UpstreamAnswerError = errorKind('UpstreamAnswerError', 1);
export type UpstreamAnswerError = InstanceType<typeof UpstreamAnswerError>;

/** A limit the user set is reached (a spending budget): nothing more of the kind starts. */
export const LimitReachedError = errorKind('LimitReachedError', 1);
export type LimitReachedError = InstanceType<typeof LimitReachedError>;

const DISK_REFUSALS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EIO: 'input/output error',
};

/** A file svc could not write because the disk refused: full, over quota, read-only or failing. */
export class DiskWriteError extends SvcError {
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(`cannot write ${path}: ${DISK_REFUSALS[code] ?? code} (${code})`, code === 'ENOSPC' || code === 'EDQUOT' ? 'free some disk space and try again' : undefined, 1);
    this.name = 'DiskWriteError';
  }
}

/** `err` as a DiskWriteError naming `path` when the disk refused a write to it; any other error as it is. */
export function diskError(err: unknown, path: string): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code !== undefined && Object.hasOwn(DISK_REFUSALS, code) ? new DiskWriteError(path, code) : err;
}

/** Why a model call gave nothing to use: the call itself failed, or the disk could not keep its answer. */
export function modelCallFailure(err: unknown): string {
  return err instanceof DiskWriteError ? `its answer could not be kept: ${oneLine(err)}` : `the model call failed: ${oneLine(err)}`;
}

export function oneLine(err: unknown): string {
  if (err instanceof SvcError) return err.hint ? `${err.message} (${err.hint})` : err.message;
  if (err instanceof Error) return err.message.split('\n')[0] ?? String(err);
  return String(err);
}
