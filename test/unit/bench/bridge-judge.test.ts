import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { judgeSubmission } from '../../../src/bench/bridge/judge.ts';
import type { RubricNode } from '../../../src/schema/ors-rubric.ts';
import { type Fixture, PAPER, replicateFixture } from '../skills/replicate/replicate-env.ts';
import { refusal } from './bridge-fixture.ts';

let f: Fixture;
afterEach(() => f.stop());

const leaf = (id: string, requirements: string, task_category: string): RubricNode => ({ id, requirements, weight: 1, task_category, sub_tasks: [] });
const RUBRIC: RubricNode = {
  id: 'root',
  requirements: 'reproduce the paper',
  weight: 1,
  sub_tasks: [
    { id: 'code', requirements: 'the code', weight: 1, sub_tasks: [leaf('code/counts', 'The program counts every comparison of two elements exactly.', 'Code Development')] },
    { id: 'results', requirements: 'the results', weight: 1, sub_tasks: [leaf('results/best', "The best gap ratio's comparisons in the run equal the paper's 20,573.", 'Result Analysis')] },
  ],
};

/** A submission whose program counts comparisons and whose run printed the paper's number. */
function submission(withLog = true): string {
  const repo = join(f.ckpt, 'repro_sandbox');
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, 'shell.js'), 'let comparisons = 0;\nfunction less(a, b) { comparisons++; return a < b; }\nconsole.log(`${comparisons} comparisons`);\n');
  writeFileSync(join(repo, 'reproduce.sh'), '#!/bin/bash\nnode shell.js\n');
  if (withLog) writeFileSync(join(repo, 'reproduce.log'), '20573 comparisons\n');
  return repo;
}
const judge = (more: Partial<Parameters<typeof judgeSubmission>[0]> = {}) =>
  judgeSubmission({ paper_md: PAPER, rubric: RUBRIC, submission_dir: join(f.ckpt, 'repro_sandbox'), judge_model: 'judge-model', n_runs: 1, skip_negative_control: true, env: f.env(), ...more });
const systems = () => f.server.requests.map((r) => (r.body as { messages: { role: string; content: string }[] }).messages[0]?.content ?? '');

describe('judgeSubmission', () => {
  test('grades every leaf against the submission and its log; with checkpoint_dir the grade and the cost ledger are written there', async () => {
    f = replicateFixture();
    submission();
    const g = await judge({ checkpoint_dir: f.ckpt });
    expect(g).toMatchObject({ ors_score: 1, leaves_total: 2, leaves_passed: 2, code_only: false, judge_model: 'judge-model', n_runs: 1 });
    expect(g.paper_audit_mode).toBeUndefined();
    expect(systems().every((s) => s.includes('You grade one requirement of a rubric for an independent reproduction of a research paper, as a\nstrict reviewer would. You are shown'))).toBe(true);
    expect(JSON.parse(readFileSync(join(f.ckpt, 'ors_grade.json'), 'utf8')).ors_score).toBe(1);
    expect(readFileSync(join(f.ckpt, 'cost_trace.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
  });

  test('n_runs 0 means three runs; the rubric may be a path; a given reproduce_log is the one graded', async () => {
    f = replicateFixture();
    const repo = submission(false);
    const rubricPath = join(f.ckpt, 'rubric.json');
    writeFileSync(rubricPath, JSON.stringify(RUBRIC));
    const log = join(f.ckpt, 'elsewhere.log');
    writeFileSync(log, '20573 comparisons\n');
    const g = await judge({ rubric: rubricPath, n_runs: 0, reproduce_log: log });
    expect(g).toMatchObject({ n_runs: 3, code_only: false, ors_score: 1, reproduce_log: log, submission_root: repo });
  });

  test('bridge rule 9: without reproduce.log the grade is code_only', async () => {
    f = replicateFixture();
    submission(false);
    const g = await judge();
    expect(g).toMatchObject({ code_only: true, leaves_total: 1, rubric_leaves_total: 2, degraded: true });
  });

  test('bad inputs are refused before any model is asked: a missing submission or log, a rubric that is no tree', async () => {
    f = replicateFixture();
    expect((await refusal(judge())).message).toBe(`submission_dir ${join(f.ckpt, 'repro_sandbox')} is not a directory`);
    submission();
    expect((await refusal(judge({ reproduce_log: join(f.ckpt, 'none.log') }))).message).toBe(`reproduce_log ${join(f.ckpt, 'none.log')} is not a file`);
    expect((await refusal(judge({ rubric: { id: 'root' } as unknown as RubricNode }))).message).toStartWith('rubric is not a rubric tree:');
    expect((await refusal(judge({ rubric: join(f.ckpt, 'none.json') }))).message).toBe(`no rubric at ${join(f.ckpt, 'none.json')}`);
    expect(f.server.requests).toHaveLength(0);
  });
});

describe('bridge rule 10: paper_audit_mode', () => {
  test('the judge is asked as an auditor of the paper\'s claims, the controls too; the grade says so', async () => {
    f = replicateFixture();
    submission();
    const g = await judge({ paper_audit_mode: true, skip_negative_control: false });
    expect(g.paper_audit_mode).toBe(true);
    expect(systems()).toHaveLength(2 + 4);
    for (const s of systems()) {
      expect(s).toStartWith("<!-- prompt: grading/judge_leaf -->\nYou are a reviewer auditing whether a research paper's claims are supported by the code and logs\nsubmitted with it;");
      expect(s).not.toContain('independent reproduction');
    }
  });

  test('with code_only it is refused, before any model is asked and with nothing written', async () => {
    f = replicateFixture();
    submission();
    const err = await refusal(judge({ paper_audit_mode: true, code_only: true, checkpoint_dir: f.ckpt }));
    expect(err.message).toBe('paper_audit_mode and code_only exclude each other: an audit grades every claim of the paper');
    expect(f.server.requests).toHaveLength(0);
    expect(existsSync(join(f.ckpt, 'ors_grade.json'))).toBe(false);
  });

  test('an audit grades every leaf even without reproduce.log: the judge is told there is none', async () => {
    f = replicateFixture();
    submission(false);
    const g = await judge({ paper_audit_mode: true });
    expect(g).toMatchObject({ code_only: false, leaves_total: 2 });
    expect(systems().every((s) => s.includes('(no reproduce.log: the submission was not run)'))).toBe(true);
  });
});
