import { afterAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { comparisonsOf, onlyCheckpoint, outcomeOf, recordDemo, runDemo, treeNodes } from '../../scripts/record-demo.ts';
import { readCassetteHeader } from '../../src/llm/cassette.ts';
import { PROGRAM_FILE } from '../support/demo-program.ts';
import { promptName } from '../support/scripted-request.ts';
import { removeDir } from '../support/svc.ts';

// The demo end to end: a real search recorded against the scripted researcher, then replayed
// from its cassette with no model server at all.

const KNOWN_PROMPTS = [
  'agent/system',
  'evaluator/judge',
  'evaluator/metric_spec',
  'orchestrator/bfts_select',
  'orchestrator/bfts_expand_select',
  'orchestrator/bfts_expand',
  'orchestrator/lineage_decision',
  'orchestrator/root_idea_selector',
  'idea/agent',
  'idea/discussion',
  'idea/synthesis',
  'idea/ma_propose',
  'idea/ma_turn',
  'idea/ma_synthesis',
  'web/next_queries',
  'plot/figure_caption',
  'vlm/figure_review',
  'paper/section',
  'paper/review',
  'paper/abstract',
  'paper/reviewer',
  'paper/reviewer_reflection',
  'paper/meta_review',
  'paper/refine',
  'evaluator/semantic_review',
  'replicate/rubric_axes',
  'replicate/rubric_leaves',
  'paper_re/replicator',
  'grading/judge_leaf',
  'pipeline/keywords',
  'transform/configurations',
  'transform/ear_readme',
];

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeDir(d);
});

/** Every file of that name below a directory. */
function filesNamed(dir: string, name: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesNamed(path, name));
    else if (entry.name === name) out.push(path);
  }
  return out;
}

describe('svc run of the demo', () => {
  let recordedCheckpoint = '';

  test('records a real search against the scripted researcher', async () => {
    const run = await recordDemo();
    dirs.push(run.root);
    expect(run.code, run.stderr).toBe(0);
    expect(run.checkpoint).not.toBeNull();
    recordedCheckpoint = run.checkpoint ?? '';

    // every request used a prompt the scripted researcher knows
    const names = [...new Set(run.requests.map((r) => promptName(r) ?? '(no prompt line)'))];
    expect(names.filter((n) => !KNOWN_PROMPTS.includes(n))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['agent/system', 'evaluator/judge', 'orchestrator/bfts_expand']));

    // the ideas came from the multi-agent engine: three teams of two, two rounds each, over the library's papers
    expect(names).toEqual(expect.arrayContaining(['idea/ma_propose', 'idea/ma_turn', 'idea/ma_synthesis']));
    expect(JSON.parse(readFileSync(join(recordedCheckpoint, 'idea.json'), 'utf8'))).toMatchObject({ ma_integration_status: 'real_wrap', n_agents: 2, discussion_rounds: 2 });
    const teams = JSON.parse(readFileSync(join(recordedCheckpoint, 'idea_teams.json'), 'utf8'));
    expect(teams).toMatchObject({ engine: 'multi-agent', ran: true, settings: { k: 2, team_size: 2, n_authors: 4 } });
    expect(teams.teams.map((t: { members: unknown[] }) => t.members.length)).toEqual([2, 2, 2]);

    const nodes = treeNodes(recordedCheckpoint);
    expect(nodes.length).toBeGreaterThanOrEqual(5);
    const measured = nodes.filter((n) => n.status === 'success' && comparisonsOf(n) !== null);
    expect(measured.length).toBeGreaterThanOrEqual(4);
    const best = measured.reduce((a, b) => (Number(b.metrics._scientific_score ?? 0) > Number(a.metrics._scientific_score ?? 0) ? b : a));
    expect(best.metrics._scientific_score).toBeGreaterThan(0);
    // the best node measured fewer comparisons than the insertion-sort baseline
    expect(comparisonsOf(best)).toBeLessThan(1013583);
    // children changed their programs: different variants, different counts
    expect(new Set(measured.map(comparisonsOf)).size).toBeGreaterThan(1);

    const programs = filesNamed(join(run.root, 'workspace', 'experiments'), PROGRAM_FILE);
    expect(programs.length).toBeGreaterThanOrEqual(5);
    for (const p of programs) {
      expect(statSync(p).size).toBeGreaterThan(500);
      expect(readFileSync(p, 'utf8')).toContain('function sort(a, gapList)');
    }
    const results = filesNamed(join(run.root, 'workspace', 'experiments'), 'results.json');
    expect(results.length).toBeGreaterThanOrEqual(4);
    expect(readFileSync(join(recordedCheckpoint, 'llm_cassette.jsonl'), 'utf8').trim().split('\n').length).toBeGreaterThan(10);
    // the cassette carries the memory embedding model as the run resolved it (the workflow's default: none), not only what the environment set
    expect(readCassetteHeader(join(recordedCheckpoint, 'llm_cassette.jsonl'))?.env).toMatchObject({ MEMBACKEND_EMBEDDING_CONFIG: 'default', SVC_IDEA_MA_K: '2' });
    // the post-search related-work search ran: the online search is a closed port, the papers come from the demo's library
    expect(run.stderr).toContain('search_related_work: done');
    const refs = JSON.parse(readFileSync(join(recordedCheckpoint, 'related_refs.json'), 'utf8'));
    expect(refs.offline).toBeUndefined();
    expect(refs.count).toBe(8);
    expect(refs.papers.every((p: { library?: { key: string }; cite_key: string }) => p.library?.key === p.cite_key)).toBe(true);

    // after the search, the science data and the artifact bundle, curated and published
    const stages = ['transform_data', 'generate_ear', 'write_paper', 'link_paper_claims_draft', 'claim_evidence_hard_gate_draft', 'review_paper', 'evidence_grounded_semantic_review', 'merge_reviews', 'paper_refine', 'render_paper'];
    const reproduction = ['ors_generate_rubric', 'ors_seed_sandbox', 'ors_build_reproduce', 'ors_run_reproduce', 'ors_grade'];
    for (const stage of [...stages, 'link_paper_claims_final', 'evidence_grounded_semantic_review_post_refine', 'claim_evidence_hard_gate_final', 'ear_curate', 'ear_publish', 'finalize_paper', ...reproduction]) expect(run.stderr).toContain(`${stage}: done`);
    expect(names).toEqual(expect.arrayContaining(['pipeline/keywords', 'transform/configurations', 'transform/ear_readme', 'paper/reviewer', 'paper/reviewer_reflection', 'paper/refine', 'evaluator/semantic_review', 'paper_re/replicator', 'grading/judge_leaf']));
    // the compiled paper reviewed with the default rubric: its score is the checkpoint's review score
    expect(JSON.parse(readFileSync(join(recordedCheckpoint, 'review_report.json'), 'utf8'))).toMatchObject({ rubric_id: 'neurips', n: 1, decision: 'accept', overall_score: 8 });
    const science = JSON.parse(readFileSync(join(recordedCheckpoint, 'science_data.json'), 'utf8'));
    expect(science.values['best.comparisons'].value).toBe(30850);
    expect(science.best.value).toBe(30850);
    expect(science.baseline.value).toBe(1013583);
    expect(science.configurations.length).toBe(measured.length);
    expect(science.notes).toContain("configuration names and method summary are the model's");
    expect(science.configurations.find((c: { node_id: string }) => c.node_id === science.best.node_id).name).toMatch(/^Shell sort, gap ratio /);
    const manifest = JSON.parse(readFileSync(join(recordedCheckpoint, 'ear_manifest.json'), 'utf8'));
    expect(manifest.readme).toBe('model');
    expect(manifest.code.map((c: { role: string }) => c.role)).toEqual(['best', 'baseline']);
    const lock = JSON.parse(readFileSync(join(recordedCheckpoint, 'ear_published', 'manifest.lock'), 'utf8'));
    expect(lock.files.map((f: { path: string }) => f.path)).toEqual(expect.arrayContaining(['README.md', 'RESULTS.md', 'data/science_data.json', `code/best/${PROGRAM_FILE}`, `code/baseline/${PROGRAM_FILE}`]));
    expect(readFileSync(join(recordedCheckpoint, 'ear', 'RESULTS.md'), 'utf8')).toContain(`| best | ${science.configurations.find((c: { node_id: string }) => c.node_id === science.best.node_id).name} | \`${science.best.node_id}\` | 30850 |`);
  }, 300_000);

  test('replays the recorded cassette with no model server: the same nodes and metrics', async () => {
    expect(recordedCheckpoint).not.toBe('');
    const cassette = join(recordedCheckpoint, 'llm_cassette.jsonl');
    // a memory embedding model saved in the workspace's settings does not change what the replay asks
    const run = await runDemo({ replay: cassette, settings: { membackend_embedding_config: 'localllm/saved-embed' } });
    dirs.push(run.root);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('saved-embed');
    const checkpoint = onlyCheckpoint(run.root);
    expect(checkpoint).not.toBeNull();
    expect(treeNodes(checkpoint ?? '').length).toBe(treeNodes(recordedCheckpoint).length);
    expect(outcomeOf(checkpoint ?? '')).toEqual(outcomeOf(recordedCheckpoint));
    // the replay ran the programs itself
    expect(filesNamed(join(run.root, 'workspace', 'experiments'), PROGRAM_FILE).length).toBeGreaterThanOrEqual(5);
    // and the post-search prompts were answered from the recording: the same names, the same numbers
    const science = (dir: string) => JSON.parse(readFileSync(join(dir, 'science_data.json'), 'utf8'));
    const named = (dir: string) => science(dir).configurations.map((c: { name: string; metrics: unknown }) => [c.name, c.metrics]).sort();
    expect(named(checkpoint ?? '')).toEqual(named(recordedCheckpoint));
    expect(science(checkpoint ?? '').notes).toContain("configuration names and method summary are the model's");
  }, 300_000);

  test('a request missing from the cassette fails the replay with a clear error', async () => {
    expect(recordedCheckpoint).not.toBe('');
    const cassette = join(recordedCheckpoint, 'llm_cassette.jsonl');
    const lines = readFileSync(cassette, 'utf8').trim().split('\n');
    const cut = join(recordedCheckpoint, 'cut_cassette.jsonl');
    await Bun.write(cut, `${lines.slice(0, 2).join('\n')}\n`);
    const run = await runDemo({ replay: cut });
    dirs.push(run.root);
    expect(run.code).not.toBe(0);
    expect(run.stderr + run.stdout).toContain('replay diverged from the recording');
  }, 300_000);
});
