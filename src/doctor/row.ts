import { oneLine } from '../core/errors.ts';

export type DoctorStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One line of the doctor's table: what svc will use, whether it works, and how to fix it when not. */
export type DoctorRow = {
  area: string;
  item: string;
  status: DoctorStatus;
  detail: string;
  fix?: string;
  /** the workflow as configured needs it: a `fail` here makes the report fail */
  needed: boolean;
};

/** A row; `fix` is left out when there is none, so the JSON carries no empty field. */
export function row(area: string, item: string, status: DoctorStatus, detail: string, needed: boolean, fix?: string): DoctorRow {
  return fix === undefined ? { area, item, status, detail, needed } : { area, item, status, detail, fix, needed };
}

/**
 * The rows of one area's check, held to `timeoutMs`: a check that throws or runs out of time is
 * one `fail` row naming why, never an exception, so one broken area cannot hide the others. The
 * row is `needed` as the area is: a broken area the workflow does not use fails nothing.
 */
export async function guarded(area: string, needed: boolean, timeoutMs: number, check: () => Promise<DoctorRow[]>): Promise<DoctorRow[]> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the check gave no answer in ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return await Promise.race([check(), late]);
  } catch (err) {
    return [row(area, 'check', 'fail', oneLine(err), needed)];
  } finally {
    clearTimeout(timer);
  }
}
