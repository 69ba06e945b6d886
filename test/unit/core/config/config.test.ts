import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, effective, loadConfig } from '../../../../src/core/config/config.ts';
import { ENV_VARS, envValue } from '../../../../src/core/config/env-vars.ts';
import { experimentPartition } from '../../../../src/core/config/experiment-md.ts';
import { BUILTIN_MODELS, SETTINGS } from '../../../../src/core/config/settings.ts';
import { InputError } from '../../../../src/core/errors.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let dir: string;
let project: string;
let home: string;
beforeEach(() => {
  dir = tempDir();
  project = join(dir, 'project');
  home = join(dir, 'home');
  mkdirSync(join(project, 'workspace', 'checkpoints'), { recursive: true });
  mkdirSync(home);
});
afterEach(() => removeDir(dir));

const load = (env: Record<string, string> = {}, opts: Parameters<typeof loadConfig>[0] = {}): Config => loadConfig({ cwd: project, env: { HOME: home, ...env }, ...opts });
const value = (cfg: Config, key: string, explicit?: string | number) => effective(cfg, key, explicit).value;

describe('precedence rows of the spec', () => {
  test('model: SVC_MODEL, SVC_LLM_MODEL, configuration, built-in default', () => {
    const config = join(dir, 'wf.yaml');
    writeFileSync(config, 'llm: {model: from-config}\n');
    expect(value(load({}), 'model')).toBe('qwen3:4b');
    expect(effective(load({}), 'model').source).toBe('(bundled workflow.yaml): llm.model');
    expect(value(load({}, { configPath: config }), 'model')).toBe('from-config');
    expect(value(load({ SVC_LLM_MODEL: 'llm-model' }, { configPath: config }), 'model')).toBe('llm-model');
    expect(effective(load({ SVC_MODEL: 'top', SVC_LLM_MODEL: 'llm-model' }, { configPath: config }), 'model')).toEqual({ key: 'model', value: 'top', source: 'env SVC_MODEL' });
  });

  test('backend: SVC_BACKEND, configuration, local daemon', () => {
    expect(value(load(), 'backend')).toBe('localllm');
    expect(value(load({ SVC_BACKEND: 'providera' }), 'backend')).toBe('providera');
  });

  test('checkpoint dir: SVC_CHECKPOINT_DIR, configuration checkpoint.dir, workspace/checkpoints/{run_id}', () => {
    expect(value(load(), 'checkpoint_dir')).toBe(join(project, 'workspace', 'checkpoints', '{run_id}'));
    const config = join(dir, 'wf.yaml');
    writeFileSync(config, 'checkpoint: {dir: /data/ck}\n');
    expect(value(load({}, { configPath: config }), 'checkpoint_dir')).toBe('/data/ck');
    expect(value(load({ SVC_CHECKPOINT_DIR: '/env/ck/run1' }, { configPath: config }), 'checkpoint_dir')).toBe('/env/ck/run1');
  });

  test('dashboard port: SVC_GUI_PORT, --port, 8765', () => {
    expect(value(load(), 'gui_port')).toBe(8765);
    expect(value(load(), 'gui_port', 9000)).toBe(9000);
    expect(value(load({ SVC_GUI_PORT: '9100' }), 'gui_port', 9000)).toBe(9100);
  });

  test('rubric: explicit, SVC_RUBRIC, neurips', () => {
    expect(value(load(), 'rubric')).toBe('neurips');
    expect(value(load({ SVC_RUBRIC: 'iclr' }), 'rubric')).toBe('iclr');
    expect(value(load({ SVC_RUBRIC: 'iclr' }), 'rubric', 'sc')).toBe('sc');
  });

  test('review ensemble: explicit, SVC_NUM_REVIEWS_ENSEMBLE, 1', () => {
    expect(value(load(), 'num_reviews_ensemble')).toBe(1);
    expect(value(load({ SVC_NUM_REVIEWS_ENSEMBLE: '3' }), 'num_reviews_ensemble')).toBe(3);
    expect(value(load({ SVC_NUM_REVIEWS_ENSEMBLE: '3' }), 'num_reviews_ensemble', 2)).toBe(2);
  });

  test('partition: SVC_SLURM_PARTITION, then none', () => {
    expect(value(load(), 'partition')).toBeNull();
    expect(value(load({ SVC_SLURM_PARTITION: 'gpu' }), 'partition')).toBe('gpu');
  });

  test('judge models: own variable, settings.json, SVC_MODEL_EVAL, SVC_MODEL, SVC_LLM_MODEL, then a built-in hosted model', () => {
    expect(effective(load(), 'model_lineage')).toEqual({ key: 'model_lineage', value: BUILTIN_MODELS.judge, source: 'default' });
    expect(value(load({ SVC_LLM_MODEL: 'c' }), 'model_lineage')).toBe('c');
    expect(value(load({ SVC_MODEL: 'b', SVC_LLM_MODEL: 'c' }), 'model_lineage')).toBe('b');
    expect(value(load({ SVC_MODEL_EVAL: 'a', SVC_MODEL: 'b' }), 'model_root_select')).toBe('a');
    expect(value(load({ SVC_MODEL_LINEAGE: 'l', SVC_MODEL_EVAL: 'a' }), 'model_lineage')).toBe('l');
    writeFileSync(join(project, 'workspace', 'settings.json'), JSON.stringify({ model_lineage: 'saved-judge' }));
    expect(value(load({ SVC_MODEL: 'generic' }), 'model_lineage')).toBe('saved-judge');
  });

  test('replication and vision roles default to built-in ids, not the run model', () => {
    const cfg = load({ SVC_MODEL: 'run-model' });
    for (const key of ['model_rubric_gen', 'model_rubric_audit', 'model_replicate', 'model_judge']) expect(value(cfg, key)).toBe(BUILTIN_MODELS.replication);
    expect(value(cfg, 'model_vlm')).toBe(BUILTIN_MODELS.vision);
    expect(value(load({ SVC_MODEL_JUDGE: 'j', VLM_MODEL: 'v' }), 'model_judge')).toBe('j');
    expect(value(cfg, 'model_idea')).toBe('run-model');
  });

  test('base_url: the workflow, then LLM_API_BASE as a fallback', () => {
    expect(value(load({ LLM_API_BASE: 'http://127.0.0.1:1/v1' }), 'base_url')).toBe('http://127.0.0.1:1/v1');
    const config = join(dir, 'wf.yaml');
    writeFileSync(config, 'llm: {base_url: "http://127.0.0.1:2/v1"}\n');
    expect(value(load({ LLM_API_BASE: 'http://127.0.0.1:1/v1' }, { configPath: config }), 'base_url')).toBe('http://127.0.0.1:2/v1');
  });
});

describe('layers', () => {
  test('profiles sit between the file and the environment', () => {
    expect(value(load(), 'max_nodes')).toBe(50);
    expect(effective(load({}, { profile: 'laptop' }), 'max_nodes')).toEqual({ key: 'max_nodes', value: 8, source: 'profile laptop' });
    expect(value(load({}, { profile: 'hpc' }), 'executor')).toBe('slurm');
    expect(value(load({ SVC_MAX_NODES: '3' }, { profile: 'laptop' }), 'max_nodes')).toBe(3);
    expect(value(load({}, { profile: 'laptop' }), 'max_depth')).toBe(5); // not in the profile: the file's
  });

  test('an unknown profile is an error', () => {
    expect(() => load({}, { profile: 'desktop' })).toThrow("unknown profile 'desktop'");
  });

  test('an empty environment value counts as missing', () => {
    expect(value(load({ SVC_MODEL: '', SVC_LLM_MODEL: 'x' }), 'model')).toBe('x');
    expect(value(load({ SVC_MAX_NODES: '' }), 'max_nodes')).toBe(50);
    expect(envValue({ SVC_RUBRIC: '' }, 'SVC_RUBRIC')).toBe('neurips');
  });

  test('settings.json (what the user saved) sits above the environment, the profile and the workflow, as the dashboard shows', () => {
    writeFileSync(join(project, 'workspace', 'settings.json'), JSON.stringify({ llm_model: 'saved', max_nodes: 12, llm_base_url: '' }));
    expect(effective(load(), 'model')).toEqual({ key: 'model', value: 'saved', source: `${join(project, 'workspace', 'settings.json')}: llm_model` });
    expect(value(load(), 'max_nodes')).toBe(12);
    expect(value(load({}, { profile: 'laptop' }), 'max_nodes')).toBe(12);
    expect(value(load({ SVC_MODEL: 'env' }), 'model')).toBe('saved');
    // an empty saved value is no value: the layers below answer
    expect(value(load({ LLM_API_BASE: 'http://127.0.0.1:9/v1' }), 'base_url')).toBe('http://127.0.0.1:9/v1');
    // a value given on the command line wins over all
    expect(effective(load({ SVC_MODEL: 'env' }), 'model', 'flag').value).toBe('flag');
  });

  test('.env files: checkpoint dir, project root, binary dir, home; the real environment wins', () => {
    const ckpt = join(project, 'workspace', 'checkpoints', 'r1');
    mkdirSync(ckpt);
    writeFileSync(join(home, '.env'), 'SVC_MODEL=home\nSVC_RUBRIC=home-rubric\n');
    expect(effective(load(), 'model')).toEqual({ key: 'model', value: 'home', source: `${join(home, '.env')}: SVC_MODEL` });
    writeFileSync(join(project, '.env'), 'SVC_MODEL=project\n');
    expect(value(load(), 'model')).toBe('project');
    writeFileSync(join(ckpt, '.env'), 'SVC_MODEL=checkpoint\n');
    expect(value(load({}, { checkpointDir: ckpt }), 'model')).toBe('checkpoint');
    expect(value(load({}, { checkpointDir: ckpt }), 'rubric')).toBe('home-rubric');
    expect(value(load({ SVC_MODEL: 'real' }, { checkpointDir: ckpt }), 'model')).toBe('real');
  });

  test('a .env line without = stops loading with the file and line named', () => {
    writeFileSync(join(project, '.env'), 'A=1\nnot a pair\n');
    expect(() => load()).toThrow(`${join(project, '.env')}:2: the line is not KEY=VALUE`);
  });

  test('${ENV} in the workflow sees .env values', () => {
    writeFileSync(join(project, '.env'), 'AUTHOR=Grace\n');
    const config = join(dir, 'wf.yaml');
    writeFileSync(config, 'author_name: ${AUTHOR}\n');
    expect(load({}, { configPath: config }).workflow.workflow.author_name).toBe('Grace');
  });

  test('a bad number in the environment names the setting and its source', () => {
    expect(() => value(load({ SVC_MAX_NODES: 'lots' }), 'max_nodes')).toThrow(InputError);
    expect(() => value(load({ SVC_MAX_NODES: 'lots' }), 'max_nodes')).toThrow("max_nodes from env SVC_MAX_NODES must be a positive whole number, got 'lots'");
    expect(() => value(load({ SVC_EXECUTOR: 'cloud' }), 'executor')).toThrow(/must be one of local, slurm, pbs, lsf/);
  });

  test('SVC_ROOT sets the project root', () => {
    const other = join(dir, 'other');
    mkdirSync(other);
    expect(load({ SVC_ROOT: other }).projectRoot).toBe(other);
    expect(load().projectRoot).toBe(project);
  });

});

describe('the settings table', () => {
  test("a default the table states is the bundled workflow's value where the workflow has one", () => {
    const bundled = load().workflow.workflow;
    for (const s of SETTINGS) {
      const inWorkflow = s.workflow?.get(bundled);
      if (s.default === undefined || typeof s.default === 'function' || inWorkflow === undefined || inWorkflow === '') continue;
      expect([s.key, s.default]).toEqual([s.key, inWorkflow as never]);
    }
  });

  test("a variable a setting reads takes the setting's default", () => {
    for (const s of SETTINGS) {
      if (typeof s.default === 'function') continue;
      const text = s.default === undefined || s.default === null ? null : String(s.default);
      for (const name of s.env ?? []) expect([name, ENV_VARS.find((e) => e.name === name)?.default]).toEqual([name, text]);
    }
  });

  test("the run reads a value saved under the dashboard's name, in the ors block too", () => {
    writeFileSync(join(project, 'workspace', 'settings.json'), JSON.stringify({ ors: { replicator_model: 'page-rep' }, llm_provider: 'providerb' }));
    expect(effective(load(), 'model_replicate')).toEqual({ key: 'model_replicate', value: 'page-rep', source: `${join(project, 'workspace', 'settings.json')}: ors.replicator_model` });
    expect(value(load({ SVC_BACKEND: 'providera' }), 'backend')).toBe('providerb');
  });

  test('a dashboard-only key is no run setting', () => {
    expect(() => effective(load(), 'ssh_port')).toThrow("unknown setting 'ssh_port'");
  });
});

describe('environment variable table', () => {
  test('lists every variable a setting reads', () => {
    const known = new Set(ENV_VARS.map((e) => e.name));
    for (const s of SETTINGS) for (const name of [...(s.env ?? []), ...(s.envFallback ?? [])]) expect(known.has(name)).toBe(true);
  });

  test('defaults of the spec table', () => {
    const d = Object.fromEntries(ENV_VARS.map((e) => [e.name, e.default]));
    expect(d).toMatchObject({
      SVC_MAX_NODES: '50',
      SVC_MAX_DEPTH: '5',
      SVC_MAX_REACT: '80',
      SVC_TIMEOUT_NODE: '7200',
      SVC_EXECUTOR: 'local',
      LOCALLLM_HOST: '127.0.0.1:11434',
      SVC_RETRIEVAL_BACKEND: 'scholar_a',
      SVC_ORCHESTRATOR_PORT: '9890',
      MEMBACKEND_BASE_URL: 'http://localhost:8283',
      SVC_MEMORY_LETTA_TIMEOUT_S: '10',
      SVC_MEMORY_LETTA_OVERFETCH: '200',
      SVC_MEMORY_ACCESS_LOG_MAX_MB: '100',
      SVC_RUBRIC: 'neurips',
      SVC_FEWSHOT_MODE: 'static',
      SVC_NUM_REVIEWS_ENSEMBLE: '1',
      SVC_NUM_REFLECTIONS: '5',
      SVC_PHASE1_DOCKER_IMAGE: 'ubuntu:24.04',
      SVC_REPRO_CLONE_POLICY: 'passthrough',
      SVC_WORK_DIR: '/tmp/svc_work',
      SVC_IDEA_MA_K: '7',
      SVC_IDEA_MA_TEAM_SIZE: '3',
      SVC_IDEA_MA_N_AUTHORS: '16',
      SVC_IDEA_MA_N_PAPERS: '800',
      SVC_MODEL_LINEAGE: BUILTIN_MODELS.judge,
      SVC_MODEL_ROOT_SELECT: BUILTIN_MODELS.judge,
      SVC_MODEL_JUDGE: BUILTIN_MODELS.replication,
      SVC_BACKEND: 'localllm',
      SVC_MODEL: null,
      SVC_SLURM_PARTITION: null,
      SVC_REGISTRY_DATA: null,
    });
  });

  test('the key variables are marked secret', () => {
    const secret = ENV_VARS.filter((e) => e.secret).map((e) => e.name);
    expect(secret).toEqual(['PROVIDERA_API_KEY', 'PROVIDERB_API_KEY', 'LLM_API_KEY', 'SVC_SCHOLAR_A_API_KEY', 'BRAVE_API_KEY', 'MEMBACKEND_API_KEY', 'SVC_REGISTRY_TOKEN', 'SVC_OBJECT_STORE_SECRET_ACCESS_KEY', 'SVC_OBJECT_STORE_SESSION_TOKEN', 'GITHUB_TOKEN', 'ZENODO_TOKEN', 'SVC_GUI_TOKEN', 'HF_TOKEN']);
  });
});

describe('scheduler partition row', () => {
  test('experiment file line, SVC_SLURM_PARTITION, settings, SLURM_DEFAULT_PARTITION, then none (the scheduler decides)', () => {
    const md = '# Goal\nRun it.\n\n- **Partition:** `gpu-a100`\n';
    expect(experimentPartition(md)).toBe('gpu-a100');
    expect(experimentPartition('Partition: debug\n')).toBe('debug');
    expect(experimentPartition('No partition here.\n')).toBeNull();
    const explicit = experimentPartition(md) ?? undefined;
    expect(value(load({ SVC_SLURM_PARTITION: 'env-p' }), 'partition', explicit)).toBe('gpu-a100');
    expect(value(load({ SVC_SLURM_PARTITION: 'env-p', SLURM_DEFAULT_PARTITION: 'def' }), 'partition')).toBe('env-p');
    expect(effective(load({ SLURM_DEFAULT_PARTITION: 'def' }), 'partition')).toEqual({ key: 'partition', value: 'def', source: 'env SLURM_DEFAULT_PARTITION' });
    expect(value(load({ SLURM_DEFAULT_PARTITION: 'def' }, { profile: 'hpc' }), 'partition')).toBe('def');
    expect(value(load(), 'partition')).toBeNull();
  });
});
