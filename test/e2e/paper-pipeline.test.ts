import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { removeDir, svc, tempDir } from '../support/svc.ts';
import { writeEarCheckpoint } from '../support/checkpoint.ts';
import { startTestRegistry, type TestRegistry } from '../support/registry-server.ts';
import { lacks } from '../support/components.ts';
import { pdfText, writePaper } from '../support/paper.ts';

let dir: string;
let ckpts: string;
let reg: TestRegistry;
let owner: string;
let reproSkill: string;

// the ear stages of the bundled workflow, a reproducibility check served by an external skill, and
// a paper stage whose tool this version of the paper skill does not have
const WORKFLOW = (skill: string) => `
skills:
  - { name: transform-skill, path: builtin, phase: paper }
  - { name: paper-skill, path: builtin, phase: paper }
  - { name: repro-skill, path: ${skill}, phase: paper }
pipeline:
  - stage: translate_paper
    skill: paper-skill
    tool: translate_paper
    outputs: { file: "{{checkpoint_dir}}/paper_translated.json" }
  - stage: paper_refine
    skill: paper-skill
    tool: paper_refine
    depends_on: [translate_paper]
    inputs: { translation_path: "{{stages.translate_paper.outputs.file}}" }
  - stage: ear_curate
    skill: transform-skill
    tool: curate_ear
    inputs: { checkpoint_dir: "{{checkpoint_dir}}" }
    outputs: { file: "{{checkpoint_dir}}/ear_curate.status.json" }
  - stage: ear_publish
    skill: transform-skill
    tool: publish_ear
    depends_on: [ear_curate]
    inputs: { checkpoint_dir: "{{checkpoint_dir}}", backend: svc-registry, visibility: staged }
    outputs: { file: "{{checkpoint_dir}}/publish_record.json" }
  - stage: ors_grade
    skill: repro-skill
    tool: grade_with_judge
    depends_on: [ear_publish]
    inputs: { rubric_path: "{{checkpoint_dir}}/ors_rubric.json", n_runs: 3 }
    outputs: { file: "{{checkpoint_dir}}/ors_grade.json" }
`;

function checkpoint(name: string, publishYaml: string): string {
  const run = writeEarCheckpoint(join(ckpts, name), { 'code/sort.js': `// ${name}\n`, 'publish.yaml': publishYaml });
  writeFileSync(join(run, 'experiment.md'), '# sort faster\n');
  writeFileSync(join(run, 'workflow.yaml'), WORKFLOW(reproSkill));
  return run;
}

const record = (run: string) => JSON.parse(readFileSync(join(run, 'publish_record.json'), 'utf8'));
const grade = (score: number) => JSON.stringify({ ors_score: score, raw_score: score, leaf_grades: [], judge_model: 'judge', n_runs: 3, rubric_sha256: 'x', elapsed_sec: 1, negative_control: { empty: 0, boilerplate: 0, passed: true } });

beforeAll(() => {
  dir = tempDir();
  ckpts = join(dir, 'checkpoints');
  mkdirSync(ckpts);
  reg = startTestRegistry(dir);
  owner = reg.token('alice');
  reproSkill = join(dir, 'repro-skill');
  writeFileSync(reproSkill, `#!/bin/sh\nexec '${process.execPath}' '${resolve(import.meta.dir, '../support/repro-skill.ts')}'\n`);
  chmodSync(reproSkill, 0o755);
});
afterAll(async () => {
  await reg.stop();
  removeDir(dir);
});

describe('svc paper: the post-search pipeline', () => {
  test('stages run after their dependencies; a passing reproducibility check promotes the staged bundle (auto_promote)', async () => {
    const run = checkpoint('20260101000000_pass', 'include: ["**/*"]\nauto_promote: true\n');
    const calls = join(dir, 'calls-pass.jsonl');
    const r = await svc(['paper', run], { cwd: dir, env: { SVC_REGISTRY_URL: reg.url, SVC_REGISTRY_TOKEN: owner, REPRO_GRADE: grade(0.8), REPRO_CALLS: calls } });
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split('\n');
    // the pre-flight first: a tree without nodes passes the sanity gate
    expect(lines.shift()).toBe('pre-flight: 0 nodes, 0 with real data; verified_context.json: 0 verified results (memory holds no experiment results of these nodes)');
    expect(lines[0]).toBe('translate_paper: unavailable (paper-skill has no translate_paper in this version of svc)');
    expect(lines[1]).toBe('paper_refine: skipped (depends on translate_paper, which is unavailable)');
    expect(lines[2]).toStartWith('ear_curate: done');
    expect(lines[3]).toStartWith('ear_publish: done');
    expect(lines[4]).toStartWith('ors_grade: done');
    expect(lines[5]).toMatch(/^auto_promote: promoted to public \(svc:\/\/[0-9a-f]{16}\)$/);
    expect(r.stdout).toContain('post-search pipeline: 3 done, 1 skipped, 1 unavailable');

    // the tool got its templated inputs; its result became the stage's output file
    const call = JSON.parse(readFileSync(calls, 'utf8').trim());
    expect(call).toEqual({ tool: 'grade_with_judge', args: { rubric_path: join(run, 'ors_rubric.json'), n_runs: 3 } });
    expect(JSON.parse(readFileSync(join(run, 'ors_grade.json'), 'utf8')).ors_score).toBe(0.8);
    const rec = record(run);
    expect(rec).toMatchObject({ backend: 'svc-registry', visibility: 'public', promote_failed_at: null });
    expect(rec.promoted_at).toBeString();
    // public on the registry itself: anyone can fetch it
    const anon = await fetch(`${reg.url}/artifact/${rec.ref.slice('svc://'.length)}`);
    expect(anon.status).toBe(200);
    await anon.arrayBuffer();
    expect(existsSync(join(run, '.pipeline_started'))).toBe(true);
    expect(existsSync(join(run, 'svc.pid'))).toBe(false);

    // run again: curate and publish run again (no skip_if_exists), the bundle is already public
    const again = await svc(['paper', run, '--stage', 'ors_grade'], { cwd: dir, env: { SVC_REGISTRY_URL: reg.url, SVC_REGISTRY_TOKEN: owner, REPRO_GRADE: grade(0.9) } });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('auto_promote: not promoted: the bundle is public, not staged');
  });

  test('a failing check, or auto_promote off, leaves the bundle staged and says why', async () => {
    const low = checkpoint('20260101000000_low', 'include: ["**/*"]\nauto_promote: true\n');
    const r = await svc(['paper', low], { cwd: dir, env: { SVC_REGISTRY_URL: reg.url, SVC_REGISTRY_TOKEN: owner, REPRO_GRADE: grade(0.2) } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('auto_promote: not promoted: the reproducibility check did not pass: ors_score 0.2 is below 0.5');
    expect(record(low)).toMatchObject({ visibility: 'staged', promoted_at: null });

    const off = checkpoint('20260101000000_off', 'include: ["**/*"]\n');
    const r2 = await svc(['paper', off], { cwd: dir, env: { SVC_REGISTRY_URL: reg.url, SVC_REGISTRY_TOKEN: owner, REPRO_GRADE: grade(1) } });
    expect(r2.code).toBe(0);
    expect(r2.stderr).toContain('auto_promote: not promoted: publish.yaml does not set auto_promote');
    expect(record(off).visibility).toBe('staged');
  });

  test('required: true turns a failed publish into a failed pipeline, which stops there; without it the run goes on', async () => {
    const env = { SVC_REGISTRY_URL: 'http://127.0.0.1:9', SVC_REGISTRY_TOKEN: owner, REPRO_GRADE: grade(1) };
    const req = checkpoint('20260101000000_required', 'include: ["**/*"]\nrequired: true\n');
    const r = await svc(['paper', req], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ear_publish: failed');
    expect(r.stderr).not.toContain('ors_grade');
    expect(r.stdout).toMatch(/post-search pipeline: 1 done, 1 skipped, 1 failed, 1 unavailable; it failed: ear_publish failed and publish\.yaml sets required: true: /);
    expect(existsSync(join(req, 'publish_record.json'))).toBe(false);
    expect(existsSync(join(req, 'ear_published', 'manifest.lock'))).toBe(true);

    // curation fails (a file over max_file_mb): the publish cannot run, which fails a required one too
    const big = checkpoint('20260101000000_required_big', 'include: ["**/*"]\nrequired: true\nmax_file_mb: 1\n');
    writeFileSync(join(big, 'ear', 'code', 'big.bin'), new Uint8Array(2 * 1024 * 1024));
    const rb = await svc(['paper', big], { cwd: dir, env });
    expect(rb.code).toBe(1);
    expect(rb.stderr).toContain('ear_curate: failed (ear/code/big.bin is 2.0 MB, over max_file_mb 1');
    expect(rb.stdout).toContain('it failed: ear_publish could not run and publish.yaml sets required: true: depends on ear_curate, which failed');

    const opt = checkpoint('20260101000000_optional', 'include: ["**/*"]\n');
    const r2 = await svc(['paper', opt], { cwd: dir, env });
    expect(r2.code).toBe(0);
    expect(r2.stderr).toContain('ors_grade: skipped (depends on ear_publish, which failed)');
    expect(r2.stdout).toContain('post-search pipeline: 1 done, 2 skipped, 1 failed, 1 unavailable');
  });

  test('skip_if_exists: a usable output skips the stage; a missing one or one holding an error runs it again', async () => {
    const run = checkpoint('20260101000000_skip', 'include: ["**/*"]\n');
    writeFileSync(
      join(run, 'workflow.yaml'),
      `skills:\n  - { name: repro-skill, path: ${reproSkill}, phase: paper }\npipeline:\n  - stage: ors_grade\n    skill: repro-skill\n    tool: grade_with_judge\n    outputs: { file: "{{checkpoint_dir}}/ors_grade.json" }\n    skip_if_exists: "{{checkpoint_dir}}/ors_grade.json"\n`,
    );
    const calls = join(dir, 'calls-skip.jsonl');
    const env = { REPRO_GRADE: grade(0.7), REPRO_CALLS: calls };
    const count = () => (existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n').length : 0);
    expect((await svc(['paper', run], { cwd: dir, env })).stderr).toContain('ors_grade: done');
    expect(count()).toBe(1);
    const skipped = await svc(['paper', run], { cwd: dir, env });
    expect(skipped.stderr).toContain(`ors_grade: skipped (${join(run, 'ors_grade.json')} is already there; delete it to run the stage again)`);
    expect(count()).toBe(1);
    writeFileSync(join(run, 'ors_grade.json'), '{"error":"judge unreachable"}');
    expect((await svc(['paper', run], { cwd: dir, env })).stderr).toContain('ors_grade: done');
    expect(count()).toBe(2);
    expect(JSON.parse(readFileSync(join(run, 'ors_grade.json'), 'utf8')).ors_score).toBe(0.7);
  });

  test('the sanity gate: a search whose nodes worked but measured nothing stops the pipeline (exit 1) unless SVC_FORCE_PAPER=1', async () => {
    const run = checkpoint('20260101000000_nodata', 'include: ["**/*"]\n');
    const node = { id: 'node_20260101000000_nodata_root', parent_id: null, status: 'failed', artifacts: [{ type: 'code', tool: 'write_code', content: 'x', step: 1 }], metrics: {}, has_real_data: false, label: 'draft' };
    writeFileSync(join(run, 'tree.json'), JSON.stringify({ nodes: [node] }));
    const env = { REPRO_GRADE: grade(1) };
    const r = await svc(['paper', run], { cwd: dir, env });
    expect(r.code).toBe(1);
    const why = 'no node of the search has real data with measured metrics (1 of 1 left artifacts or metrics); nothing for a paper to report; see bfts_no_real_data.json (SVC_FORCE_PAPER=1 runs the pipeline anyway)';
    expect(r.stdout).toContain(`post-search pipeline: stopped before any stage: ${why}`);
    expect(r.stderr).not.toContain('ear_curate');
    expect(JSON.parse(readFileSync(join(run, 'bfts_no_real_data.json'), 'utf8')).nodes[0]).toMatchObject({ id: node.id, artifacts: 1, has_real_data: false });
    expect(existsSync(join(run, 'ear_published'))).toBe(false);

    const forced = await svc(['paper', run], { cwd: dir, env: { ...env, SVC_FORCE_PAPER: '1' } });
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('SVC_FORCE_PAPER=1: the pipeline runs anyway');
    expect(forced.stderr).toContain('ear_curate: done');
  });

  test('bad input: a checkpoint without a search, a search stage, an unknown stage', async () => {
    const bare = join(ckpts, '20260101000000_bare');
    mkdirSync(bare, { recursive: true });
    writeFileSync(join(bare, 'idea.json'), '{"ideas":[]}');
    const none = await svc(['paper', bare], { cwd: dir, env: {} });
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toBe(`svc: ${bare} has no tree.json: the search has not run (run it first: svc run <experiment.md>, or svc resume ${bare})`);
    const run = checkpoint('20260101000000_bad', 'include: ["**/*"]\n');
    const search = await svc(['paper', run, '--stage', 'select_and_run'], { cwd: dir, env: {} });
    expect(search.code).toBe(2);
    expect(search.stderr).toContain("'select_and_run' is a stage of the search, not of the post-search pipeline");
    writeFileSync(join(run, 'workflow.yaml'), `${WORKFLOW(reproSkill)}    enabled: false\n`);
    const off = await svc(['paper', run, '--stage', 'ors_grade'], { cwd: dir, env: {} });
    expect(off.code).toBe(2);
    expect(off.stderr.trim()).toBe("svc: stage 'ors_grade' is switched off in this workflow (set enabled: true on it in the workflow file)");
    const unknown = await svc(['paper', run, '--stage', 'nope'], { cwd: dir, env: {} });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown stage 'nope'");
    expect(existsSync(join(run, 'ear_published'))).toBe(false);
  });
});

// the paper skill's deterministic tools as stages: the statement goes in after curation, the
// compiled PDF becomes the stage's output, the format check its report
const PAPER_WORKFLOW = `
skills:
  - { name: transform-skill, path: builtin, phase: paper }
  - { name: paper-skill, path: builtin, phase: paper }
pipeline:
  - stage: ear_curate
    skill: transform-skill
    tool: curate_ear
    inputs: { checkpoint_dir: "{{checkpoint_dir}}" }
    outputs: { file: "{{checkpoint_dir}}/ear_curate.status.json" }
  - stage: finalize_paper
    skill: paper-skill
    tool: inject_code_availability
    depends_on: [ear_curate]
    inputs: { tex_path: "{{checkpoint_dir}}/paper/main.tex", checkpoint_dir: "{{checkpoint_dir}}" }
    outputs: { file: "{{checkpoint_dir}}/finalize_paper.json" }
  - stage: render_paper
    skill: paper-skill
    tool: compile_paper
    depends_on: [finalize_paper]
    inputs: { tex_dir: "{{checkpoint_dir}}/paper" }
    outputs: { file: "{{checkpoint_dir}}/full_paper.pdf" }
  - stage: check_paper
    skill: paper-skill
    tool: check_format
    depends_on: [render_paper]
    inputs: { venue: sc, pdf_path: "{{checkpoint_dir}}/paper/main.pdf" }
    outputs: { file: "{{checkpoint_dir}}/format_check.json" }
`;

describe('svc paper: the paper skill as pipeline stages', () => {
  test.skipIf(lacks('venues') || lacks('pdftools'))('code availability after curation, the compiled paper as the output file, its format report', async () => {
    const run = writeEarCheckpoint(join(ckpts, '20260101000000_paper'), { 'code/sort.js': '// sort\n', 'publish.yaml': 'include: ["**/*"]\nlicense: MIT\n' });
    writeFileSync(join(run, 'workflow.yaml'), PAPER_WORKFLOW);
    writePaper(join(run, 'paper'), 'sc');
    const r = await svc(['paper', run], { cwd: dir, env: {} });
    expect(r.stderr).toContain('finalize_paper: done');
    expect(r.stdout).toContain('post-search pipeline: 4 done');
    const finalize = JSON.parse(readFileSync(join(run, 'finalize_paper.json'), 'utf8'));
    expect(finalize.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(finalize).toMatchObject({ replaced: false, ref: null, doi: null, license_id: 'MIT' });
    expect(readFileSync(join(run, 'full_paper.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfText(join(run, 'full_paper.pdf')).replace(/\s+/g, '')).toContain(finalize.sha256.slice(0, 16));
    expect(JSON.parse(readFileSync(join(run, 'format_check.json'), 'utf8'))).toMatchObject({ venue: 'sc', passes: true, findings: [] });
  }, 60_000);
});
