import { expect } from 'bun:test';
import { jobStatus } from '../../../../src/skills/hpc/slurm-tools.ts';
import { callTool, type Env } from '../coding/tool-call.ts';

/** job_status, asked as a model would, until the job has finished. */
export async function finished(jobId: string, env: Env): Promise<any> {
  for (;;) {
    const s = await callTool(jobStatus, { job_id: jobId }, env);
    if (!['PENDING', 'RUNNING'].includes(s.status)) return s;
    await Bun.sleep(200);
  }
}

/** The error a call ends with; the test fails when it succeeds. */
export async function refusal(p: Promise<unknown>): Promise<Error> {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(Error);
  return err as Error;
}
