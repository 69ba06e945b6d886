import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ModelServer, startModelServer, type Step } from '../../../support/model-server.ts';
import { researcherReply } from '../../../support/scripted-researcher.ts';
import type { OpenAIChatRequest } from '../../../support/scripted-request.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

/** The demo's Shell-sort paper as the write_paper stage leaves it, its numbers filled in. */
export const PAPER = [
  '# Fewer comparisons with geometric Shell sort',
  '',
  'Each configuration is one program that sorts the same fixed pseudo-random array and counts every comparison of two elements exactly.',
  'The baseline is plain insertion sort. The Shell sort variants use gaps that shrink by a constant ratio down to one: ratio 2.2, ratio 3 and ratio 4.',
  'The best configuration needs 20,573 comparisons, against 1,003,112 for insertion sort: 48.8 times fewer.',
  'The best of them, Shell sort, gap ratio 2.2, reached 20,573 (the others fixed: algorithm = shell, seed = 42, n = 2000).',
  '',
].join('\n');

export type Fixture = { dir: string; ckpt: string; server: ModelServer; env: (more?: Record<string, string>) => Record<string, string | undefined>; stop: () => void };

/** A checkpoint holding the paper, and the scripted researcher as every model (a script first, when given). */
export function replicateFixture(script: Step[] = []): Fixture {
  const dir = tempDir();
  const ckpt = join(dir, 'workspace', 'checkpoints', 'run1');
  mkdirSync(join(ckpt, 'paper'), { recursive: true });
  mkdirSync(join(dir, 'home'));
  writeFileSync(join(ckpt, 'paper', 'paper.md'), PAPER);
  const server = startModelServer(script, { respond: (b) => researcherReply(b as OpenAIChatRequest) });
  const env = (more: Record<string, string> = {}) => ({
    PATH: process.env.PATH,
    HOME: join(dir, 'home'),
    SVC_CHECKPOINT_DIR: ckpt,
    SVC_BACKEND: 'openai-compatible',
    LLM_API_BASE: `${server.url}/v1`,
    SVC_MODEL: 'scripted-researcher',
    SVC_MODEL_RUBRIC_GEN: 'rubric-model',
    SVC_MODEL_RUBRIC_AUDIT: 'audit-model',
    SVC_LLM_MAX_RETRIES: '0',
    ...more,
  });
  return { dir, ckpt, server, env, stop: () => (server.stop(), removeDir(dir)) };
}
