import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLED, bundledWorkflow, dependsOn, loadWorkflow, locateWorkflow, parseWorkflow } from '../../../../src/core/config/workflow.ts';
import { InputError } from '../../../../src/core/errors.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

const SPEC_KEYS = ['llm', 'author_name', 'resources', 'bfts_pipeline', 'pipeline', 'retrieval', 'memory', 'container', 'skills', 'plan_promote', 'lineage_decision', 'root_idea_selection', 'claim_gate_policy', 'bfts', 'evaluator'];

describe('bundled workflow', () => {
  const wf = bundledWorkflow();

  test('has every top-level key of the spec', () => {
    for (const k of SPEC_KEYS) expect(Object.keys(wf)).toContain(k);
  });

  test('bfts_pipeline: the four stages, frontier_expand loops back to select_and_run', () => {
    expect(wf.bfts_pipeline.map((s) => s.stage)).toEqual(['generate_idea', 'select_and_run', 'evaluate', 'frontier_expand']);
    expect(wf.bfts_pipeline[3]?.loop_back_to).toBe('select_and_run');
  });

  test("pipeline keeps the reference's order of post-search stages: the paper reviewed, refined, checked, published, then finalized", () => {
    const order = [
      'search_related_work',
      'transform_data',
      'generate_figures',
      'write_paper',
      'link_paper_claims_draft',
      'claim_evidence_hard_gate_draft',
      'review_paper',
      'evidence_grounded_semantic_review',
      'merge_reviews',
      'paper_refine',
      'render_paper',
      'link_paper_claims_final',
      'evidence_grounded_semantic_review_post_refine',
      'claim_evidence_hard_gate_final',
      'ear_curate',
      'ear_publish',
      'finalize_paper',
      'ors_generate_rubric',
      'ors_seed_sandbox',
      'ors_build_reproduce',
      'ors_run_reproduce',
      'ors_grade',
    ];
    const names = wf.pipeline.map((s) => s.stage);
    const positions = order.map((n) => names.indexOf(n));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  test('every depends_on points backwards, so file order is a valid run order', () => {
    const names = wf.pipeline.map((s) => s.stage);
    wf.pipeline.forEach((s, i) => {
      for (const d of dependsOn(s)) expect(names.indexOf(d)).toBeLessThan(i);
    });
  });

  test('ear_publish: a disabled registry entry, then an enabled staged local tarball; ors_grade runs 3 times', () => {
    const publish = wf.pipeline.filter((s) => s.stage === 'ear_publish');
    expect(publish.map((s) => [s.enabled, s.inputs?.backend, s.inputs?.visibility])).toEqual([
      [false, 'svc-registry', 'staged'],
      [true, 'local-tarball', 'staged'],
    ]);
    expect(wf.pipeline.find((s) => s.stage === 'ors_grade')?.inputs?.n_runs).toBe(3);
  });

  test('thirteen skills, each with phases from bfts, paper, reproduce, none', () => {
    expect(wf.skills).toHaveLength(13);
    const names = wf.skills.map((s) => s.name);
    for (const n of ['idea-skill', 'coding-skill', 'hpc-skill', 'evaluator-skill', 'memory-skill', 'benchmark-skill', 'web-skill', 'transform-skill', 'plot-skill', 'vlm-skill', 'paper-skill', 'replicate-skill', 'paper-re-skill']) {
      expect(names).toContain(n);
    }
  });

  test('spec defaults', () => {
    expect(wf.plan_promote).toBe('index_only');
    expect(wf.root_idea_selection.enabled).toBe(true);
    expect(wf.lineage_decision).toMatchObject({ mode: 'stagnation_rule', stagnation_window: 5, stagnation_threshold: 0.02, min_nodes_before_decision: 3, rate_limit_per_run: 5 });
    expect(wf.claim_gate_policy).toMatchObject({
      mode: 'warn',
      comparison_scope: 'any',
      numeric_coverage: { target_sections: { strict: ['abstract', 'results', 'conclusion'], warn: ['introduction', 'discussion', 'limitations'], excluded: ['related_work', 'references', 'appendix', 'equations'] } },
      numeric_match: { default_tolerance: { absolute: 0, relative: 0.02 } },
      blocking: { block_on: ['numeric_mismatch', 'operand_unresolved', 'missing_evidence'] },
    });
    expect(wf.bfts).toMatchObject({ frontier_score: 'scientific_plus_diversity', depth_penalty_lambda: 0.05, ucb_c: 0.5, max_nodes: 50, max_depth: 5, max_react: 80, timeout_node: 7200, max_expansions_per_node: 4 });
    expect(wf.evaluator).toMatchObject({ composite: 'harmonic_mean', axis_mode: 'dynamic' });
    expect(wf.container).toEqual({ mode: 'auto', image: '', pull: 'on_start', network: false });
    expect(wf.retrieval.backend).toBe('scholar_a');
    expect(wf.resources.executor).toBe('local');
  });
});

describe('parseWorkflow', () => {
  const parse = (text: string, env = {}) => parseWorkflow(text, '/w/workflow.yaml', env);
  const failure = (text: string): string => {
    try {
      parse(text);
    } catch (err) {
      expect(err).toBeInstanceOf(InputError);
      return (err as Error).message;
    }
    throw new Error('expected an error');
  };

  test('a partial file keeps the defaults it leaves out; lists replace', () => {
    const wf = parse('bfts:\n  ucb_c: 0.9\nskills:\n  - {name: web-skill, path: builtin, phase: paper}\npipeline: []\nbfts_pipeline: []\n');
    expect(wf.bfts.ucb_c).toBe(0.9);
    expect(wf.bfts.frontier_score).toBe('scientific_plus_diversity');
    expect(wf.skills).toHaveLength(1);
    expect(wf.claim_gate_policy.mode).toBe('warn');
  });

  test('an empty file is the bundled default', () => {
    expect(parse('')).toEqual(bundledWorkflow());
  });

  test('expands ${ENV} with defaults', () => {
    const wf = parse('llm:\n  base_url: ${API_BASE:-http://127.0.0.1:9}\nauthor_name: ${AUTHOR}\n', { AUTHOR: 'Ada' });
    expect(wf.llm.base_url).toBe('http://127.0.0.1:9');
    expect(wf.author_name).toBe('Ada');
  });

  test('an unknown stage in depends_on names the key, the stage and the file', () => {
    const msg = failure('pipeline:\n  - {stage: a}\n  - {stage: b, depends_on: [a, wirte_paper]}\n');
    expect(msg).toBe("/w/workflow.yaml: pipeline[1].depends_on: unknown stage 'wirte_paper' (stages: a, b)");
  });

  test('depends_on as a single string is checked too', () => {
    expect(failure('pipeline:\n  - {stage: a, depends_on: zzz}\n')).toContain("unknown stage 'zzz'");
  });

  test('an unknown loop_back_to and a second enabled stage of one name are errors', () => {
    expect(failure('bfts_pipeline:\n  - {stage: a, loop_back_to: nowhere}\n')).toContain('bfts_pipeline[0].loop_back_to');
    expect(failure('pipeline:\n  - {stage: a}\n  - {stage: a}\n')).toContain("pipeline[1].stage: 'a' is already an enabled stage above");
    expect(parse('pipeline:\n  - {stage: a, enabled: false}\n  - {stage: a}\n').pipeline).toHaveLength(2);
  });

  test('depends_on must name a stage above: no cycles, no self-dependency', () => {
    expect(failure('pipeline:\n  - {stage: c, depends_on: [c]}\n')).toContain("pipeline[0].depends_on: 'c' is not above 'c'; stages run in file order");
    expect(failure('pipeline:\n  - {stage: a, depends_on: [b]}\n  - {stage: b, depends_on: [a]}\n')).toContain("pipeline[0].depends_on: 'b' is not above 'a'");
  });

  test('the minimal workflow of the reference implementation is read', () => {
    const wf = parse(`llm: {backend: openai, model: gpt-4o}
bfts_pipeline:
  - {stage: generate_idea, skill: idea-skill, tool: generate_ideas, description: "...", depends_on: [], enabled: true, phase: bfts}
  - {stage: select_and_run, skill: hpc-skill, tool: "", depends_on: [generate_idea], enabled: true, phase: bfts}
pipeline:
  - {stage: search_related_work, skill: web-skill, tool: collect_references_iterative, depends_on: [], enabled: true, phase: paper}
  - {stage: write_paper, skill: paper-skill, tool: write_paper_iterative, depends_on: [search_related_work], enabled: true, phase: paper}
skills:
  - {name: idea-skill, path: /x/idea, phase: none}
  - {name: memory-skill, path: /x/mem, phase: bfts}
  - {name: paper-skill, path: /x/pap, phase: paper}
disabled_tools: []
`);
    expect(wf.llm.model).toBe('gpt-4o');
    expect(wf.skills.map((s) => s.name)).toEqual(['idea-skill', 'memory-skill', 'paper-skill']);
  });

  test('a whole ${VAR} reference to a number is that number', () => {
    const wf = parse('resources:\n  cpus: ${CPUS:-8}\n  timeout_minutes: ${T}\nroot_idea_selection:\n  enabled: ${ROOT}\nauthor_name: "${N}"\n', { T: '30', ROOT: 'false', N: '42' });
    expect(wf.resources).toMatchObject({ cpus: 8, timeout_minutes: 30 });
    expect(wf.root_idea_selection.enabled).toBe(false);
    expect(failure('resources:\n  cpus: ${CPUS:-eight}\n')).toContain('resources.cpus: expected integer (got "eight")');
  });

  test('an alias bomb is refused as input', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`)].join('\n');
    expect(failure(bomb)).toMatch(/^\/w\/workflow\.yaml: /);
  });

  test('a bad enum lists the choices; a bad type says what was expected', () => {
    expect(failure('bfts:\n  frontier_score: best\n')).toBe('/w/workflow.yaml: bfts.frontier_score: must be one of scientific_plus_diversity, scientific_only, depth_penalized, ucb_like (got "best")');
    expect(failure('resources:\n  cpus: many\n')).toContain('resources.cpus: expected integer (got "many")');
    expect(failure('skills:\n  - {name: x, path: builtin, phase: sometimes}\n')).toContain('skills[0].phase: must be one of bfts, paper, reproduce, none, or a list of them (got "sometimes")');
  });

  test('malformed YAML names the file, line and column', () => {
    expect(failure('llm:\n  model: [unclosed\nauthor_name: x\n')).toMatch(/^\/w\/workflow\.yaml:\d+:\d+: /);
  });

  test('a key given twice is refused, not silently overridden', () => {
    expect(failure('bfts:\n  ucb_c: 1\nbfts:\n  ucb_c: 2\n')).toMatch(/^\/w\/workflow\.yaml:3:1: Map keys must be unique/);
  });

  test('a document that is not a mapping is refused', () => {
    expect(failure('- a\n- b\n')).toBe('/w/workflow.yaml: must be a mapping of keys');
  });

  test('reads the older block names of reference workflow files', () => {
    const wf = parse('retrieval: {backend: semantic_scholar}\nmemory:\n  backend: letta\n  letta: {base_url: "http://m:1", collection_prefix: p_, embedding_config: e}\nversion: "1"\n');
    expect(wf.retrieval.backend).toBe('scholar_a');
    expect(wf.memory.membackend.base_url).toBe('http://m:1');
  });
});

describe('locateWorkflow', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => removeDir(dir));

  test('checkpoint copy, then --config, then bundled', () => {
    const ckpt = join(dir, 'ckpt');
    mkdirSync(ckpt);
    const config = join(dir, 'mine.yaml');
    writeFileSync(config, 'author_name: Mine\n');
    expect(locateWorkflow({})).toEqual({ path: BUNDLED, source: 'bundled' });
    expect(locateWorkflow({ checkpointDir: ckpt, configPath: config })).toEqual({ path: config, source: 'config' });
    writeFileSync(join(ckpt, 'workflow.yaml'), 'author_name: Ckpt\n');
    expect(locateWorkflow({ checkpointDir: ckpt, configPath: config })).toMatchObject({ path: join(ckpt, 'workflow.yaml'), source: 'checkpoint', ignoredConfig: config });
    expect(loadWorkflow({ checkpointDir: ckpt, env: {} }).workflow.author_name).toBe('Ckpt');
  });

  test('a --config that is a directory is an error naming it', () => {
    expect(() => loadWorkflow({ configPath: dir, env: {} })).toThrow(`${dir} is a directory, not a workflow file`);
  });

  test('a --config that does not exist is an error, not a silent fallback', () => {
    expect(() => locateWorkflow({ configPath: join(dir, 'missing.yaml') })).toThrow(/does not exist/);
  });
});
