import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gradeWithJudgeTool } from '../../../../src/skills/paper-re/grade.ts';
import { generateRubricTool } from '../../../../src/skills/replicate/generate-rubric.ts';
import { rejection } from '../../llm/helpers.ts';
import { callTool } from '../coding/tool-call.ts';
import { PAPER } from '../replicate/replicate-env.ts';
import { type Fixture, gradeFixture, type JudgeAsk, leaf, node, verdict, writeDemoSubmission, writeRubric } from './grade-env.ts';

let f: Fixture;
afterEach(() => f.stop());

const REPO = 'repro_sandbox';
const grade = (args: Record<string, unknown> = {}, more?: Record<string, string>) =>
  callTool(gradeWithJudgeTool, { rubric_path: 'ors_rubric.json', repo_dir: REPO, paper_path: 'paper/paper.md', ...args }, f.env({ SVC_MODEL_JUDGE: 'judge-model', ...more }));
const judgeRequests = () => f.server.requests.map((r) => r.body as { model: string; seed?: number; messages: { role: string; content: string }[] });
const readJson = (name: string) => JSON.parse(readFileSync(join(f.ckpt, name), 'utf8'));
/** A judge passing the leaves named, failing the rest and every negative control. */
const passing = (ids: string[]) => (a: JudgeAsk) => verdict(!a.control && ids.includes(a.leaf) ? 1 : 0);

describe('grade_with_judge', () => {
  test('a reproduction stopped at its time limit is graded as such: the judge is told, its run leaves fail, the grade and report say so', async () => {
    f = gradeFixture();
    writeFileSync(join(f.ckpt, 'paper', 'demo.md'), PAPER.replaceAll('20,573', '32,617').replaceAll('1,003,112', '1,013,583').replace('48.8 times', '31.1 times'));
    await callTool(generateRubricTool, { paper_path: 'paper/demo.md' }, f.env());
    writeDemoSubmission(join(f.ckpt, REPO), { log: true });
    // run_reproduce's record of the run: stopped at timeout_global_sec
    writeFileSync(join(f.ckpt, 'ors_phase1.json'), JSON.stringify({ repo_dir: join(f.ckpt, REPO), exit_code: null, timed_out: true, wall_time_sec: 60 }));
    const r = await grade({ n_runs: 1, paper_path: 'paper/demo.md' });
    expect(r.run).toEqual({ exit_code: null, timed_out: true, wall_time_sec: 60 });
    const execution = r.leaf_grades.filter((g: { task_category: string }) => g.task_category === 'Code Execution');
    expect(execution.length).toBeGreaterThan(0);
    expect(execution.every((g: { score: number }) => g.score === 0)).toBe(true);
    expect(r.ors_score).toBeLessThan(1);
    expect(readJson('reproducibility_report.json').run_timed_out).toBe(true);
    const asked = judgeRequests().map((b) => b.messages[0]?.content ?? '');
    expect(asked.some((m) => m.includes('(the run was stopped at its time limit, before reproduce.sh finished; the log ends there)'))).toBe(true);
    // a record of another repository says nothing of this one
    writeFileSync(join(f.ckpt, 'ors_phase1.json'), JSON.stringify({ repo_dir: join(f.ckpt, 'elsewhere'), exit_code: null, timed_out: true, wall_time_sec: 60 }));
    expect((await grade({ n_runs: 1, paper_path: 'paper/demo.md' })).run).toBeNull();
  });

  test('the demo reproduction: every leaf passed with its evidence, the controls fail, both files written', async () => {
    f = gradeFixture();
    // the paper with the numbers the demo program prints for seed 42 and n 2000
    writeFileSync(join(f.ckpt, 'paper', 'demo.md'), PAPER.replaceAll('20,573', '32,617').replaceAll('1,003,112', '1,013,583').replace('48.8 times', '31.1 times'));
    await callTool(generateRubricTool, { paper_path: 'paper/demo.md' }, f.env());
    writeDemoSubmission(join(f.ckpt, REPO), { log: true });
    const r = await grade({ n_runs: 1, paper_path: 'paper/demo.md' });
    expect(r).toMatchObject({ ors_score: 1, raw_score: 1, n_runs: 1, code_only: false, leaves_total: 11, leaves_graded: 11, leaves_failed_by_judge: 0, leaves_passed: 11, degraded: false, judge_model: 'judge-model' });
    expect(r.negative_control).toEqual({ empty: 0, boilerplate: 0, passed: true, threshold: 0.2, judge_errors: 0 });
    const best = r.leaf_grades.find((g: { leaf_id: string }) => g.leaf_id === 'result-analysis/best-matches');
    expect(best).toMatchObject({ requirements: "The best gap ratio's comparisons in the run equal the paper's 32,617.", task_category: 'Result Analysis', weight: 2, score: 1, runs: [1] });
    expect(best.evidence.join('\n')).toContain('32617 comparisons');
    expect(r.leaf_grades.find((g: { leaf_id: string }) => g.leaf_id === 'code-development/insertion-baseline').evidence).toEqual(['insertion.js']);
    const { grade_path, report_path, ...written } = r;
    expect(grade_path).toBe(join(f.ckpt, 'ors_grade.json'));
    expect(readJson('ors_grade.json')).toEqual(written);
    expect(readJson('reproducibility_report.json')).toEqual({
      ors_score: 1, raw_score: 1, n_runs: 1, spread: 0, degraded: false, negative_control: r.negative_control,
      leaves_total: 11, leaves_passed: 11, code_only: false, run_timed_out: false, judge_model: 'judge-model', rubric_sha256: r.rubric_sha256, graded_at: r.graded_at,
    });
    expect(r.rubric_sha256).toBe(readJson('ors_rubric.meta.json').rubric_sha256);
    expect(report_path).toBe(join(f.ckpt, 'reproducibility_report.json'));
  });

  test('weights aggregate up the tree; raw_score is the unweighted fraction passed', async () => {
    f = gradeFixture(passing(['a/1', 'b/1']));
    writeRubric(f, node('root', 1, [node('a', 3, [leaf('a/1', 1), leaf('a/2', 3)]), node('b', 1, [leaf('b/1', 1)])]));
    writeDemoSubmission(join(f.ckpt, REPO), { log: true });
    const r = await grade({ n_runs: 1 });
    // a = (1*1 + 3*0) / 4 = 0.25; root = (3*0.25 + 1*1) / 4
    expect(r.ors_score).toBe(0.4375);
    expect(r.raw_score).toBe(0.6667);
    expect(r.leaf_grades.map((g: { leaf_id: string; score: number; weight: number }) => [g.leaf_id, g.weight, g.score])).toEqual([['a/1', 1, 1], ['a/2', 3, 0], ['b/1', 1, 1]]);
    expect(r).toMatchObject({ leaves_passed: 2, degraded: false, negative_control: { passed: true } });
  });

  test('n_runs 0 means 3 independent runs; each leaf the mean of its runs, the spread across runs reported', async () => {
    // leaf x passes in the first run only; y always
    f = gradeFixture((a) => verdict(a.control ? 0 : a.leaf === 'y' || a.seed === 0 ? 1 : 0));
    writeRubric(f, node('root', 1, [leaf('x'), leaf('y')]));
    writeDemoSubmission(join(f.ckpt, REPO), { log: true });
    const r = await grade({ skip_negative_control: true });
    expect(r.n_runs).toBe(3);
    expect(r.run_scores).toEqual([1, 0.5, 0.5]);
    expect(r.spread).toBe(0.5);
    expect(r.leaf_grades[0]).toMatchObject({ leaf_id: 'x', runs: [1, 0, 0], score: 0.3333 });
    expect(r.ors_score).toBe(0.6667);
    expect(r.leaves_passed).toBe(1);
    expect(r.negative_control).toEqual({ empty: null, boilerplate: null, passed: null, threshold: 0.2, skipped: true });
    expect(new Set(judgeRequests().map((b) => b.seed))).toEqual(new Set([0, 1, 2]));
    expect(judgeRequests()).toHaveLength(6);
  });

  test('a malformed answer is corrected once; still malformed, its leaf fails and is counted, the grade degraded', async () => {
    f = gradeFixture((a) => {
      if (a.control) return verdict(0);
      if (a.leaf === 'fixed') return a.attempt === 1 ? 'I think it passes.' : verdict(1);
      if (a.leaf === 'broken') return a.attempt === 1 ? 'no JSON here' : JSON.stringify({ score: 'yes', explanation: 'x' });
      if (a.leaf === 'other') return verdict(1, { leaf_id: 'fixed' });
      return verdict(1);
    });
    writeRubric(f, node('root', 1, [leaf('fixed'), leaf('broken'), leaf('other'), leaf('fine')]));
    writeDemoSubmission(join(f.ckpt, REPO), { log: true });
    const r = await grade({ n_runs: 1 });
    const by = Object.fromEntries(r.leaf_grades.map((g: { leaf_id: string }) => [g.leaf_id, g]));
    expect(by.fixed).toMatchObject({ score: 1 });
    expect(by.fixed.judge_error).toBeUndefined();
    expect(by.broken).toMatchObject({ score: 0, runs: [0] });
    expect(by.broken.judge_error).toContain('score is not a number (0 or 1)');
    // an answer about another leaf grades neither
    expect(by.other).toMatchObject({ score: 0 });
    expect(by.other.judge_error).toContain("leaf_id 'fixed' is not the leaf asked (other)");
    expect(r).toMatchObject({ leaves_total: 4, leaves_graded: 2, leaves_failed_by_judge: 2, ors_score: 0.5, degraded: true });
    expect(r.degraded_reason).toContain('2 of 4 leaves have no valid judge answer');
    const asked = (id: string) => judgeRequests().filter((b) => b.messages[0]?.content.includes(`Leaf: ${id}\n`) && !b.messages[0]?.content.includes('no files') && !b.messages[0]?.content.includes('Reproducing the paper')).length;
    expect([asked('fixed'), asked('broken'), asked('fine')]).toEqual([2, 2, 1]);
  });

  test('a score out of range fails its leaf at once, without a correction', async () => {
    f = gradeFixture((a) => verdict(a.control ? 0 : a.leaf === 'five' ? 5 : a.leaf === 'half' ? 0.5 : 1));
    writeRubric(f, node('root', 1, [leaf('five'), leaf('half'), leaf('ok')]));
    writeDemoSubmission(join(f.ckpt, REPO), { log: true });
    const r = await grade({ n_runs: 1, skip_negative_control: true });
    expect(r.leaf_grades.map((g: { score: number }) => g.score)).toEqual([0, 0, 1]);
    expect(r.leaf_grades[0].judge_error).toBe('score 5 is out of range (0 or 1)');
    expect(r.leaf_grades[1].judge_error).toBe('score 0.5 is out of range (0 or 1)');
    expect(r).toMatchObject({ leaves_failed_by_judge: 2, degraded: true });
    expect(judgeRequests()).toHaveLength(3);
  });

  test('a judge that passes everything is caught by the negative controls: degraded', async () => {
    f = gradeFixture(() => verdict(1));
    writeRubric(f, node('root', 1, [leaf('a'), leaf('b', 1, 'Code Execution')]));
    writeDemoSubmission(join(f.ckpt, REPO), { log: true });
    const r = await grade({ n_runs: 1 });
    expect(r.ors_score).toBe(1);
    expect(r.negative_control).toEqual({ empty: 1, boilerplate: 1, passed: false, threshold: 0.2, judge_errors: 0 });
    expect(r.degraded).toBe(true);
    expect(r.degraded_reason).toBe('negative control failed: the empty submission scored 1, the boilerplate one 1 (each must be below 0.2)');
    expect(readJson('reproducibility_report.json')).toMatchObject({ degraded: true, negative_control: { passed: false } });
  });

  test('a judge that fails on the controls does not pass them: passed null, the control leaves without an answer counted, degraded', async () => {
    // the submission's leaves answered; on the controls the judge answers nothing usable, out of range, or (once) 0
    f = gradeFixture((a) => (!a.control ? verdict(1) : a.leaf === 'a' ? 'no JSON here' : a.leaf === 'b' ? verdict(7) : verdict(0)));
    writeRubric(f, node('root', 1, [leaf('a'), leaf('b'), leaf('c')]));
    writeDemoSubmission(join(f.ckpt, REPO), { log: true });
    const r = await grade({ n_runs: 1 });
    expect(r).toMatchObject({ ors_score: 1, leaves_failed_by_judge: 0, degraded: true });
    expect(r.negative_control).toEqual({ empty: 0, boilerplate: 0, passed: null, threshold: 0.2, judge_errors: 4 });
    expect(r.degraded_reason).toBe('negative control not decided: 4 of 6 control leaves have no valid judge answer (missing, malformed or out of range)');
    expect(readJson('reproducibility_report.json')).toMatchObject({ degraded: true, negative_control: { passed: null, judge_errors: 4 } });
    // each control leaf graded once (a malformed answer corrected once): 3 real, 2 × (2 + 1 + 1) control requests
    expect(judgeRequests()).toHaveLength(3 + 2 * 4);
  });

  test('without reproduce.log only the Code Development leaves are graded (code_only on by itself); code_only, asked for or not, is degraded', async () => {
    f = gradeFixture((a) => verdict(a.control ? 0 : 1));
    writeRubric(f, node('root', 1, [node('dev', 1, [leaf('d1'), leaf('d2')]), node('run', 1, [leaf('r1', 1, 'Code Execution')]), node('res', 2, [leaf('s1', 1, 'Result Analysis')])]));
    writeDemoSubmission(join(f.ckpt, REPO));
    const r = await grade({ n_runs: 1 });
    expect(r).toMatchObject({ code_only: true, code_only_reason: 'no reproduce.log in the submission (bridge rule 9)', leaves_total: 2, rubric_leaves_total: 4, ors_score: 1, degraded: true, reproduce_log: null });
    expect(r.leaf_grades.map((g: { leaf_id: string }) => g.leaf_id)).toEqual(['d1', 'd2']);
    expect(r.degraded_reason).toBe('no reproduce.log: graded code_only: 2 of 4 rubric leaves');
    writeFileSync(join(f.ckpt, REPO, 'reproduce.log'), 'insertion sort of 2000 integers (seed 42): 1003112 comparisons\n');
    const asked = await grade({ n_runs: 1, code_only: true });
    expect(asked).toMatchObject({ code_only: true, code_only_reason: 'asked for', leaves_total: 2, rubric_leaves_total: 4, degraded: true, degraded_reason: 'graded code_only: 2 of 4 rubric leaves' });
    expect(readJson('reproducibility_report.json')).toMatchObject({ code_only: true, degraded: true, degraded_reason: 'graded code_only: 2 of 4 rubric leaves' });
    const full = await grade({ n_runs: 1 });
    expect(full).toMatchObject({ code_only: false, leaves_total: 4 });
  });

  test('a nested submission/ directory is the submission root; a stray top-level reproduce.sh is not graded', async () => {
    f = gradeFixture((a) => verdict(a.control ? 0 : 1));
    writeRubric(f, node('root', 1, [leaf('a', 1, 'Code Execution')]));
    mkdirSync(join(f.ckpt, REPO), { recursive: true });
    writeFileSync(join(f.ckpt, REPO, 'reproduce.sh'), '#!/bin/sh\necho stray-top-level-script\n');
    writeDemoSubmission(join(f.ckpt, REPO, 'submission'), { log: true });
    const r = await grade({ n_runs: 1, skip_negative_control: true });
    expect(r.submission_root).toBe(join(f.ckpt, REPO, 'submission'));
    expect(r.reproduce_log).toBe(join(f.ckpt, REPO, 'submission', 'reproduce.log'));
    expect(r.code_only).toBe(false);
    const shown = judgeRequests()[0]?.messages[0]?.content ?? '';
    expect(shown).toContain('- shell_2.2.js (');
    expect(shown).toContain('### reproduce.sh\n```\n#!/bin/sh\nset -e\nnode insertion.js');
    expect(shown).toContain('## reproduce.log\ninsertion sort of 2000 integers (seed 42): 1013583 comparisons');
    expect(shown).not.toContain('stray-top-level-script');
  });

  test('links are not followed: a linked file or log from outside the submission is not shown; a linked submission/ is refused', async () => {
    f = gradeFixture((a) => verdict(a.control ? 0 : 1));
    writeRubric(f, node('root', 1, [leaf('a'), leaf('b', 1, 'Code Execution')]));
    const outside = join(f.dir, 'outside');
    writeDemoSubmission(outside, { log: true });
    writeFileSync(join(outside, 'secret.txt'), 'outside-secret\n');
    mkdirSync(join(f.ckpt, REPO), { recursive: true });
    writeFileSync(join(f.ckpt, REPO, 'main.js'), 'let comparisons = 0;\n');
    symlinkSync(join(outside, 'secret.txt'), join(f.ckpt, REPO, 'notes.txt'));
    symlinkSync(join(outside, 'reproduce.log'), join(f.ckpt, REPO, 'reproduce.log'));
    const r = await grade({ n_runs: 1, skip_negative_control: true });
    // the linked log is no log of this submission: code_only on by itself
    expect(r).toMatchObject({ submission_root: join(f.ckpt, REPO), reproduce_log: null, code_only: true, leaves_total: 1 });
    const shown = judgeRequests()[0]?.messages[0]?.content ?? '';
    expect(shown).toContain('- main.js (');
    expect(shown).not.toContain('outside-secret');
    expect(shown).not.toContain('notes.txt');
    expect(shown).toContain('(no reproduce.log: the submission was not run)');
    symlinkSync(outside, join(f.ckpt, REPO, 'submission'));
    expect((await rejection(grade({ n_runs: 1, skip_negative_control: true }))).message).toBe(`${join(f.ckpt, REPO, 'submission')} is a link: a submission is not followed out of its directory`);
  });

  test('a grade stopped midway throws and writes nothing: an abort is no failed leaf', async () => {
    const stop = new AbortController();
    f = gradeFixture(async (a) => {
      stop.abort();
      await Bun.sleep(5);
      return verdict(a.control ? 0 : 1);
    });
    writeRubric(f, node('root', 1, Array.from({ length: 6 }, (_, i) => leaf(`l${i}`))));
    writeDemoSubmission(join(f.ckpt, REPO), { log: true });
    const args = { rubric_path: 'ors_rubric.json', repo_dir: REPO, paper_path: 'paper/paper.md', max_concurrency: 2 };
    await rejection(callTool(gradeWithJudgeTool, args, f.env({ SVC_MODEL_JUDGE: 'judge-model' }), stop.signal));
    expect(f.server.requests.length).toBeLessThanOrEqual(2);
    expect(existsSync(join(f.ckpt, 'ors_grade.json'))).toBe(false);
    expect(existsSync(join(f.ckpt, 'reproducibility_report.json'))).toBe(false);
  });

  test('a missing or invalid rubric: a one-line error, no model asked, nothing written', async () => {
    f = gradeFixture(() => verdict(1));
    writeDemoSubmission(join(f.ckpt, REPO), { log: true });
    const missing = await rejection(grade());
    expect(missing.message).toBe(`no rubric at ${join(f.ckpt, 'ors_rubric.json')}`);
    writeFileSync(join(f.ckpt, 'ors_rubric.json'), '{"id": "root", "requirements": "x", "weight": 1}');
    const invalid = await rejection(grade());
    expect(invalid.message).toBe(`the rubric ${join(f.ckpt, 'ors_rubric.json')} is not a rubric tree: /sub_tasks Expected required property`);
    writeFileSync(join(f.ckpt, 'ors_rubric.json'), '{"id": ');
    expect((await rejection(grade())).message).toStartWith(`the rubric ${join(f.ckpt, 'ors_rubric.json')} is not JSON:`);
    for (const e of [missing, invalid]) expect(e.message).not.toContain('\n');
    expect(f.server.requests).toHaveLength(0);
    expect(existsSync(join(f.ckpt, 'ors_grade.json'))).toBe(false);
    expect(existsSync(join(f.ckpt, 'reproducibility_report.json'))).toBe(false);
  });

  test('leaves are graded concurrently up to max_concurrency calls in flight, or SVC_JUDGE_CONCURRENCY', async () => {
    let inFlight = 0;
    let most = 0;
    f = gradeFixture(async (a) => {
      most = Math.max(most, ++inFlight);
      // held until the limit is reached, so the count seen is the limit and not the timing
      for (let i = 0; i < 200 && inFlight < limit; i++) await Bun.sleep(2);
      await Bun.sleep(5);
      inFlight--;
      return verdict(a.control ? 0 : 1);
    });
    let limit = 3;
    writeRubric(f, node('root', 1, Array.from({ length: 12 }, (_, i) => leaf(`l${i}`))));
    writeDemoSubmission(join(f.ckpt, REPO), { log: true });
    await grade({ n_runs: 1, skip_negative_control: true, max_concurrency: 3 });
    expect(most).toBe(3);
    most = 0;
    limit = 5;
    await grade({ n_runs: 1, skip_negative_control: true }, { SVC_JUDGE_CONCURRENCY: '5' });
    expect(most).toBe(5);
    expect((await rejection(grade({ n_runs: 1 }, { SVC_JUDGE_CONCURRENCY: 'many' }))).message).toBe("SVC_JUDGE_CONCURRENCY must be a whole number from 1 to 64, got 'many'");
  });

  test("the judge's evidence is kept only when it names a file shown or is text of the log shown; the rest is recorded apart, the score unchanged", async () => {
    const named = ['insertion.js', './shell_2.2.js', 'shell_3.js:12', 'insertion sort of  2000 integers\n(seed 42):', 'sort.js', 'src/made_up.py', 'shell sort of 2000 integers: 1 comparisons'];
    f = gradeFixture((a) => verdict(a.control ? 0 : 1, { evidence: named }));
    writeRubric(f, node('root', 1, [leaf('a', 1, 'Code Execution')]));
    writeDemoSubmission(join(f.ckpt, REPO), { log: true });
    const r = await grade({ n_runs: 2 });
    expect(r.leaf_grades[0]).toMatchObject({ score: 1, runs: [1, 1] });
    expect(r.leaf_grades[0].evidence).toEqual(['insertion.js', './shell_2.2.js', 'shell_3.js:12', 'insertion sort of  2000 integers\n(seed 42):']);
    expect(r.leaf_grades[0].evidence_unverified).toEqual(['sort.js', 'src/made_up.py', 'shell sort of 2000 integers: 1 comparisons']);
    expect(readJson('ors_grade.json').leaf_grades[0].evidence_unverified).toEqual(r.leaf_grades[0].evidence_unverified);
    expect(r).toMatchObject({ ors_score: 1, degraded: false });
  });

  test('the judge and the grade do not import from each other: their shared types live in one place', () => {
    const src = (name: string) => readFileSync(join(import.meta.dir, '../../../../src/grading', name), 'utf8');
    expect(src('judge.ts')).not.toMatch(/from '\.\/grade\.ts'/);
    expect(src('grade.ts')).toMatch(/from '\.\/judge\.ts'/);
  });
});
