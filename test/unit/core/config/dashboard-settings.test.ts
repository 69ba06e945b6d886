import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, loadConfig } from '../../../../src/core/config/config.ts';
import { profilesView, saveDashboardSettings, settingsView } from '../../../../src/core/config/dashboard-settings.ts';
import { BUILTIN_MODELS, SETTINGS } from '../../../../src/core/config/settings.ts';
import { InputError } from '../../../../src/core/errors.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let dir: string;
let project: string;
let checkpoint: string;
beforeEach(() => {
  dir = tempDir();
  project = join(dir, 'project');
  checkpoint = join(project, 'workspace', 'checkpoints', '20261101120000_run');
  mkdirSync(checkpoint, { recursive: true });
});
afterEach(() => removeDir(dir));

const settingsFile = () => join(project, 'workspace', 'settings.json');
const save = (saved: Record<string, unknown>) => writeFileSync(settingsFile(), JSON.stringify(saved));
/** A workflow copy in the checkpoint, as the dashboard sees it for the active run. */
const workflow = (yaml: string) => writeFileSync(join(checkpoint, 'workflow.yaml'), yaml);
const load = (env: Record<string, string> = {}): Config => loadConfig({ cwd: project, env: { HOME: dir, ...env }, checkpointDir: checkpoint });
const view = (env: Record<string, string> = {}) => settingsView(load(env));

describe('settings view: the spec rules, one each', () => {
  test('a truthy saved value wins over the environment, the workflow and the default', () => {
    workflow('llm: {model: wf-model}\n');
    save({ llm_model: 'saved-model', ssh_port: 2222 });
    const v = view({ SVC_MODEL: 'env-model' });
    expect([v.llm_model, v._sources.llm_model]).toEqual(['saved-model', 'saved']);
    expect([v.ssh_port, v._sources.ssh_port]).toEqual([2222, 'saved']);
  });

  test('a present-but-empty saved key wins the merge', () => {
    save({ slurm_partition: '', container_image: '', vlm_review_enabled: false });
    const v = view({ SVC_SLURM_PARTITION: 'gpu', SVC_CONTAINER_IMAGE: 'img' });
    expect([v.slurm_partition, v._sources.slurm_partition]).toEqual(['', 'saved']);
    expect([v.container_image, v._sources.container_image]).toEqual(['', 'saved']);
    expect([v.vlm_review_enabled, v._sources.vlm_review_enabled]).toEqual([false, 'saved']);
  });

  test('after the merge only llm_model and llm_provider are refilled from the workflow, even with the variable set', () => {
    workflow('llm: {model: wf-model, backend: wf-backend}\n');
    save({ llm_model: '', llm_provider: '', llm_backend: '' });
    const v = view({ SVC_MODEL: 'env-model', SVC_BACKEND: 'env-backend' });
    expect([v.llm_model, v._sources.llm_model]).toEqual(['wf-model', 'workflow']);
    expect([v.llm_provider, v._sources.llm_provider]).toEqual(['wf-backend', 'workflow']);
    expect([v.llm_backend, v._sources.llm_backend]).toEqual(['', 'saved']);
  });

  test('the environment wins over the workflow', () => {
    workflow('llm: {model: wf-model}\nresources: {cpus: 6}\n');
    const v = view({ SVC_LLM_MODEL: 'env-model', SVC_SLURM_CPUS: '12' });
    expect([v.llm_model, v._sources.llm_model]).toEqual(['env-model', 'env SVC_LLM_MODEL']);
    expect([v.slurm_cpus, v._sources.slurm_cpus]).toEqual([12, 'env SVC_SLURM_CPUS']);
    // SVC_MODEL wins over SVC_LLM_MODEL, as everywhere
    expect(view({ SVC_MODEL: 'a', SVC_LLM_MODEL: 'b' }).llm_model).toBe('a');
  });

  test('a variable from a .env file counts as the environment', () => {
    writeFileSync(join(project, '.env'), 'SVC_RETRIEVAL_BACKEND=both\n');
    const v = view({ SVC_ROOT: project });
    expect([v.retrieval_backend, v._sources.retrieval_backend]).toEqual(['both', 'env SVC_RETRIEVAL_BACKEND']);
  });

  test('the workflow wins over the built-in default', () => {
    workflow('container: {mode: podman}\nresources: {timeout_minutes: 90}\n');
    const v = view();
    expect([v.container_mode, v._sources.container_mode]).toEqual(['podman', 'workflow']);
    expect([v.slurm_walltime, v._sources.slurm_walltime]).toEqual(['01:30:00', 'workflow']);
    expect([v.ssh_port, v._sources.ssh_port]).toEqual([22, 'default']);
  });

  test('unknown saved keys pass through', () => {
    save({ experimental_flag: { a: 1 }, rubric_id: 'iclr' });
    const v = view();
    expect(v.experimental_flag).toEqual({ a: 1 });
    expect(v.rubric_id).toBe('iclr');
    expect(v._sources.experimental_flag).toBe('saved');
  });
});

describe('settings view: shape', () => {
  test('every key of the dictionary, the ors block, and a source for each', () => {
    const v = view();
    const names = SETTINGS.flatMap((s) => s.page ?? []);
    const top = names.filter((n) => !n.startsWith('ors.'));
    for (const name of top) {
      expect(Object.keys(v)).toContain(name);
      expect(['default', 'workflow']).toContain(v._sources[name] as string);
    }
    const ors = v.ors as Record<string, unknown>;
    expect(Object.keys(ors).sort()).toEqual(names.filter((n) => n.startsWith('ors.')).map((n) => n.slice(4)).sort());
    expect(ors.judge_model).toBe(BUILTIN_MODELS.replication);
    expect(ors.replicator_model).toBe(BUILTIN_MODELS.replication);
    expect(v._sources['ors.judge_model']).toBe('default');
    expect(ors.judge_n_runs).toBe(3);
    expect(v._sources['ors.judge_n_runs']).toBe('workflow');
  });

  test('the ors block merges with saved keys one by one, and reads its own variables', () => {
    save({ ors: { judge_model: 'saved-judge', note: 'kept' } });
    const v = view({ SVC_MODEL_REPLICATE: 'env-rep', SVC_RUBRIC_GEN_TWO_STAGE: 'on', SVC_RUBRIC_GEN_TARGET_LEAVES: '120' });
    expect(v.ors).toMatchObject({ judge_model: 'saved-judge', note: 'kept', replicator_model: 'env-rep', rubric_gen_two_stage: true, rubric_gen_target_leaves: 120 });
    expect(v._sources['ors.replicator_model']).toBe('env SVC_MODEL_REPLICATE');
    expect(v._sources['ors.judge_model']).toBe('saved');
  });

  test('secret-looking saved keys never appear, at any depth', () => {
    save({ semantic_scholar_key: 'S2-VALUE-1', membackend_api_key: 'MB-VALUE-2', publish: { token: 'PUB-VALUE-3', backend: 'local-tarball' } });
    const text = JSON.stringify(view());
    for (const secret of ['S2-VALUE-1', 'MB-VALUE-2', 'PUB-VALUE-3']) expect(text).not.toContain(secret);
    expect(view().publish).toEqual({ backend: 'local-tarball' });
  });
});

describe('saving settings', () => {
  test('merges into settings.json, the ors block key by key', () => {
    save({ llm_model: 'm', ors: { judge_model: 'j' } });
    saveDashboardSettings(settingsFile(), { slurm_cpus: 8, ors: { replicator_model: 'r' }, custom: 'x', _sources: { llm_model: 'saved' } });
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({ llm_model: 'm', ors: { judge_model: 'j', replicator_model: 'r' }, slurm_cpus: 8, custom: 'x' });
  });

  test('empty values clear a known key', () => {
    saveDashboardSettings(settingsFile(), { slurm_cpus: null, slurm_partition: '' });
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({ slurm_cpus: null, slurm_partition: '' });
  });

  test.each([
    [{ slurm_cpus: '8' }, 'slurm_cpus must be a whole number of at least 1'],
    [{ slurm_cpus: 1.5 }, 'slurm_cpus must be a whole number'],
    [{ ssh_port: 70000 }, 'ssh_port must be a whole number of at least 1 and at most 65535'],
    [{ temperature: 'hot' }, 'temperature must be a number'],
    [{ vlm_review_enabled: 'yes' }, 'vlm_review_enabled must be true or false'],
    [{ retrieval_backend: 'google' }, 'retrieval_backend must be one of scholar_a, scholar_b, both'],
    [{ container_pull: 'sometimes' }, 'container_pull must be one of always, on_start, never'],
    [{ profile: 'desktop' }, 'profile must be one of laptop, hpc, cloud'],
    [{ slurm_partitions: 'a,b' }, 'slurm_partitions must be a list of strings'],
    [{ llm_model: 5 }, 'llm_model must be a string'],
    [{ ors: 'x' }, 'ors must be a JSON object'],
    [{ ors: { judge_n_runs: 0 } }, 'ors.judge_n_runs must be a whole number of at least 1'],
    [[1, 2], 'the body must be a JSON object'],
    ['text', 'the body must be a JSON object'],
  ])('%j is refused and nothing is written', (body, message) => {
    save({ llm_model: 'before' });
    const before = readFileSync(settingsFile(), 'utf8');
    expect(() => saveDashboardSettings(settingsFile(), body)).toThrow(message);
    expect(readFileSync(settingsFile(), 'utf8')).toBe(before);
  });

  test.each([[{ api_key: 'v' }, 'api_key'], [{ semantic_scholar_key: 'v' }, 'semantic_scholar_key'], [{ registries: [{ url: 'u', token: 'v' }] }, 'registries[0].token'], [{ ors: { judge_password: 'v' } }, 'ors.judge_password']])(
    'a secret %j is refused, pointing to /api/env-keys',
    (body, path) => {
      let err: unknown;
      try {
        saveDashboardSettings(settingsFile(), body);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      expect(String((err as InputError).message)).toContain(`'${path}' looks like a secret`);
      expect((err as InputError).hint).toContain('/api/env-keys');
      expect(existsSync(settingsFile())).toBe(false);
    },
  );
});

describe('profiles', () => {
  test('lists the three profiles and the one settings.json selects', () => {
    const p = profilesView({ profile: 'hpc' });
    expect(p.profiles.map((x) => x.name)).toEqual(['laptop', 'hpc', 'cloud']);
    expect(p.profiles[1]?.values).toMatchObject({ executor: 'slurm', cpus: 8 });
    expect(p.selected).toBe('hpc');
    expect(profilesView({}).selected).toBeNull();
    expect(profilesView({ profile: 'desktop' }).selected).toBeNull();
  });
});
