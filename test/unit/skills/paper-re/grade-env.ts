import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RubricNode } from '../../../../src/schema/ors-rubric.ts';
import { DEMO_N, DEMO_SEED, programFor } from '../../../support/demo-program.ts';
import { startModelServer, type Step } from '../../../support/model-server.ts';
import type { OpenAIChatRequest } from '../../../support/scripted-request.ts';
import { textOfRoles } from '../../../support/scripted-request.ts';
import { type Fixture, replicateFixture } from '../replicate/replicate-env.ts';

export type { Fixture };

/** What a scripted judge is shown of one request: the leaf asked, the run (its seed), whether it is a negative control. */
export type JudgeAsk = { leaf: string; seed: number; control: boolean; system: string; attempt: number };

/**
 * A checkpoint with the demo paper and a judge answering by `answer` (the scripted researcher when
 * absent). `attempt` counts the requests for the same leaf, run and submission: 2 is a correction.
 */
export function gradeFixture(answer?: (ask: JudgeAsk) => string | Step | Promise<string | Step>): Fixture {
  const f = replicateFixture();
  if (!answer) return f;
  const seen = new Map<string, number>();
  const server = startModelServer([], {
    respond: async (b) => {
      const body = b as OpenAIChatRequest;
      const system = textOfRoles(body, ['system']);
      const leaf = /^Leaf: (.*)$/m.exec(system)?.[1] ?? '';
      const kind = system.includes('(the submission has no files)') ? 'empty' : system.includes('Reproducing the paper results.') ? 'boilerplate' : 'real';
      const seed = typeof body.seed === 'number' ? body.seed : -1;
      const key = `${leaf}|${seed}|${kind}`;
      const attempt = (seen.get(key) ?? 0) + 1;
      seen.set(key, attempt);
      const a = await answer({ leaf, seed, control: kind !== 'real', system, attempt });
      return typeof a === 'string' ? { text: a } : a;
    },
  });
  // the test's judge answers instead of the scripted researcher
  const env = (more: Record<string, string> = {}) => f.env({ LLM_API_BASE: `${server.url}/v1`, ...more });
  return { ...f, server, env, stop: () => (server.stop(), f.stop()) };
}

export const verdict = (score: unknown, more: Record<string, unknown> = {}) => JSON.stringify({ score, explanation: `scored ${score}`, evidence: ['sort.js'], ...more });

export const leaf = (id: string, weight = 1, task_category = 'Code Development'): RubricNode => ({ id, requirements: `requirement ${id}`, weight, task_category, sub_tasks: [] });
export const node = (id: string, weight: number, sub_tasks: RubricNode[]): RubricNode => ({ id, requirements: `node ${id}`, weight, sub_tasks });

export function writeRubric(f: Fixture, root: RubricNode, name = 'ors_rubric.json'): string {
  writeFileSync(join(f.ckpt, name), JSON.stringify(root));
  return name;
}

/** The demo's reproduction: the sort program, a reproduce.sh running every configuration, and (with `log`) the log of its run. */
export function writeDemoSubmission(dir: string, opts: { log?: boolean } = {}): void {
  mkdirSync(dir, { recursive: true });
  const configs = [null, 2.2, 3, 4];
  configs.forEach((r) => writeFileSync(join(dir, r === null ? 'insertion.js' : `shell_${r}.js`), programFor({ algorithm: r === null ? 'insertion' : 'shell', gapRatio: r, seed: DEMO_SEED, n: DEMO_N })));
  writeFileSync(join(dir, 'reproduce.sh'), `#!/bin/sh\nset -e\n${configs.map((r) => `node ${r === null ? 'insertion.js' : `shell_${r}.js`}`).join('\n')}\n`);
  writeFileSync(join(dir, 'README.md'), '# Reproduction\n\n## How\n\nRun reproduce.sh.\n');
  if (!opts.log) return;
  const out = configs.map((r) => {
    const p = join(dir, r === null ? 'insertion.js' : `shell_${r}.js`);
    return Bun.spawnSync([process.execPath, p], { env: { ...process.env, BUN_BE_BUN: '1' } }).stdout.toString();
  });
  writeFileSync(join(dir, 'reproduce.log'), out.join(''));
}
