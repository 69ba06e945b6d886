import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

let dir: string;
let project: string;
let checkpoint: string;
let viz: Viz | undefined;
beforeEach(() => {
  dir = tempDir();
  project = join(dir, 'project');
  mkdirSync(join(dir, 'home'));
  checkpoint = writeCheckpoint(join(project, 'workspace', 'checkpoints'));
});
afterEach(async () => {
  await viz?.stop();
  viz = undefined;
  removeDir(dir);
});

const settingsFile = () => join(project, 'workspace', 'settings.json');
const envFile = () => join(project, '.env');
const start = async (env: Record<string, string> = {}) => {
  viz = await startViz([], { cwd: dir, env: { HOME: join(dir, 'home'), SVC_ROOT: project, ...env } });
  return viz;
};
const postRaw = async (v: Viz, path: string, body: string) => {
  const res = await v.req(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, body: (await res.json()) as { error: string } };
};

describe('GET /api/settings', () => {
  test('the defaults dictionary with the source of each value', async () => {
    writeFileSync(join(checkpoint, 'workflow.yaml'), 'llm: {backend: providera}\n');
    const v = await start({ SVC_MODEL: 'env-model' });
    const { status, body } = await v.get('/api/settings');
    expect(status).toBe(200);
    expect(body).toMatchObject({ llm_model: 'env-model', llm_provider: 'providera', ssh_port: 22, language: 'en', ors: { judge_model: 'gpt-5-mini' } });
    expect(body._sources).toMatchObject({ llm_model: 'env SVC_MODEL', llm_provider: 'workflow', ssh_port: 'default', 'ors.judge_model': 'default' });
    for (const key of ['llm_backend', 'llm_base_url', 'temperature', 'localllm_host', 'model_coding', 'model_review', 'slurm_partitions', 'container_pull', 'vlm_review_max_iter', 'membackend_embedding_config']) {
      expect(Object.keys(body)).toContain(key);
    }
  });

  test('saved keys win, an empty llm_model is refilled from the workflow, unknown keys pass through, secrets never appear', async () => {
    writeFileSync(settingsFile(), JSON.stringify({ llm_model: '', slurm_partition: 'saved-part', my_extra: [1], api_key: 'SAVED-SECRET-VALUE', semantic_scholar_key: 'S2-SECRET-VALUE' }));
    const v = await start({ SVC_MODEL: 'env-model', SVC_SLURM_PARTITION: 'env-part' });
    const { body } = await v.get('/api/settings');
    expect([body.llm_model, body._sources.llm_model]).toEqual(['qwen3:4b', 'workflow']);
    expect([body.slurm_partition, body._sources.slurm_partition]).toEqual(['saved-part', 'saved']);
    expect(body.my_extra).toEqual([1]);
    expect(JSON.stringify(body)).not.toContain('SECRET-VALUE');
  });
});

describe('POST /api/settings', () => {
  test('merges into settings.json and answers the new view', async () => {
    writeFileSync(settingsFile(), JSON.stringify({ language: 'ja' }));
    const v = await start();
    const { status, body } = await v.post('/api/settings', { slurm_cpus: 16, ors: { judge_n_runs: 5 }, profile: 'hpc' });
    expect(status).toBe(200);
    expect([body.slurm_cpus, body._sources.slurm_cpus]).toEqual([16, 'saved']);
    expect(body.ors.judge_n_runs).toBe(5);
    expect(body.ors.judge_model).toBe('gpt-5-mini');
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({ language: 'ja', slurm_cpus: 16, ors: { judge_n_runs: 5 }, profile: 'hpc' });
    expect((await v.get('/api/settings')).body.slurm_cpus).toBe(16);
    expect((await v.get('/api/profiles')).body.selected).toBe('hpc');
  });

  test('bad input is a 400 naming the key, and settings.json is left as it was', async () => {
    const original = '{\n  "language": "ja"\n}\n';
    writeFileSync(settingsFile(), original);
    const v = await start();
    const cases: [unknown, string][] = [
      [{ slurm_cpus: 'many' }, 'slurm_cpus must be a whole number'],
      [{ vlm_review_enabled: 1 }, 'vlm_review_enabled must be true or false'],
      [{ retrieval_backend: 'nope' }, 'retrieval_backend must be one of'],
      [{ language: 'de', ors: { judge_model: 7 } }, 'ors.judge_model must be a string'],
      [{ api_key: 'POSTED-SECRET', llm_provider: 'localllm' }, 'the localllm backend takes no API key'],
      [{ api_key: 7 }, 'api_key must be a string'],
      [{ api_key: 'POSTED-SECRET', llm_provider: 'providerb', slurm_cpus: 'many' }, 'slurm_cpus must be a whole number'],
      [{ publish: { token: 'POSTED-SECRET' } }, "'publish.token' looks like a secret"],
      [[{ language: 'de' }], 'the body must be a JSON object'],
      ['de', 'the body must be a JSON object'],
    ];
    for (const [body, message] of cases) {
      const res = await v.post('/api/settings', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(message);
      expect(res.body.error).not.toContain('POSTED-SECRET');
    }
    expect((await v.post('/api/settings', { semantic_scholar_key: 'x' })).body.error).toContain('POST /api/env-keys');
    const malformed = await postRaw(v, '/api/settings', '{"language": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toContain('malformed');
    expect(readFileSync(settingsFile(), 'utf8')).toBe(original);
  });
});

describe('POST /api/settings as the ARI web UI sends it', () => {
  test('api_key goes to .env as the provider\'s variable, never to settings.json nor back; the rest is saved', async () => {
    const v = await start();
    const res = await v.post('/api/settings', { llm_provider: 'providera', llm_model: 'gpt-4o-mini', api_key: 'sk-from-the-web-ui-0001' });
    expect(res.status).toBe(200);
    expect(readFileSync(envFile(), 'utf8')).toContain('PROVIDERA_API_KEY=sk-from-the-web-ui-0001');
    expect((statSync(envFile()).mode & 0o777).toString(8)).toBe('600');
    const saved = readFileSync(settingsFile(), 'utf8');
    expect(JSON.parse(saved)).toMatchObject({ llm_provider: 'providera', llm_model: 'gpt-4o-mini' });
    expect(saved).not.toContain('sk-from-the-web-ui');
    expect(JSON.stringify(res.body)).not.toContain('sk-from-the-web-ui');
    expect(JSON.stringify((await v.get('/api/settings')).body)).not.toContain('sk-from-the-web-ui');
    // an empty key means unchanged
    expect((await v.post('/api/settings', { language: 'ja', api_key: '' })).status).toBe(200);
    expect(readFileSync(envFile(), 'utf8')).toContain('PROVIDERA_API_KEY=sk-from-the-web-ui-0001');
  });
});

describe('one precedence for the page, svc settings and the run', () => {
  test('the same environment and settings.json give the same model in svc settings, GET /api/settings and a launched run', async () => {
    writeFileSync(settingsFile(), JSON.stringify({ llm_model: 'saved-model', llm_provider: 'openai-compatible' }));
    const env = { SVC_MODEL: 'env-model', LLM_API_BASE: 'http://127.0.0.1:9/v1' };
    const cli = await svc(['settings', '--json'], { cwd: project, env: { HOME: join(dir, 'home'), SVC_ROOT: project, ...env } });
    const fromCli = JSON.parse(cli.stdout).settings.find((x: { key: string }) => x.key === 'model');
    const v = await start(env);
    const page = (await v.get('/api/settings')).body;
    const launched = await v.post('/api/launch', { experiment_md: '# Goal\n\nSort faster.\n' });
    expect(launched.body.ok, JSON.stringify(launched.body)).toBe(true);
    const record = JSON.parse(readFileSync(join(launched.body.checkpoint_path, 'launch_config.json'), 'utf8'));
    expect([fromCli.value, page.llm_model, record.llm_model]).toEqual(['saved-model', 'saved-model', 'saved-model']);
    expect(page._sources.llm_model).toBe('saved');
    await v.post('/api/stop');
  });
});

describe('GET /api/profiles', () => {
  test('the three profiles and no selection by default', async () => {
    const v = await start();
    const { status, body } = await v.get('/api/profiles');
    expect(status).toBe(200);
    expect(body.profiles.map((p: { name: string }) => p.name)).toEqual(['laptop', 'hpc', 'cloud']);
    expect(body.profiles[0].values).toEqual({ executor: 'local', max_nodes: 8, parallel: 2 });
    expect(body.selected).toBeNull();
  });
});

describe('env-keys', () => {
  const dotenvText = '# provider keys, do not share\nPROVIDERA_API_KEY=dotenv-secret-value-1\n\nexport CUSTOM_TOKEN="dotenv-secret-value-2"  # mine\nSVC_MODEL=dotenv-model\n';

  test('GET lists names, whether set and where, and never a value', async () => {
    writeFileSync(envFile(), dotenvText);
    writeFileSync(join(dir, 'home', '.env'), 'HOME_ONLY_NAME=home-secret-value-3\n');
    const v = await start({ PROVIDERB_API_KEY: 'process-secret-value-4', SVC_GUI_TOKEN: '' });
    const { status, body } = await v.get('/api/env-keys');
    expect(status).toBe(200);
    const by = Object.fromEntries(body.map((e: { name: string }) => [e.name, e]));
    expect(by.PROVIDERA_API_KEY).toEqual({ name: 'PROVIDERA_API_KEY', meaning: 'hosted provider A key', secret: true, set: true, source: envFile() });
    expect(by.PROVIDERB_API_KEY).toMatchObject({ secret: true, set: true, source: 'environment' });
    expect(by.CUSTOM_TOKEN).toMatchObject({ secret: true, set: true, source: envFile() });
    expect(by.HOME_ONLY_NAME).toMatchObject({ set: true, source: join(dir, 'home', '.env') });
    expect(by.SVC_RUBRIC).toMatchObject({ set: false, source: null });
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/secret-value-\d|dotenv-model/);
  });

  test('POST saves to the project .env, keeps its other lines, mode 600, and answers names only', async () => {
    writeFileSync(envFile(), dotenvText);
    const v = await start();
    const { status, body } = await v.post('/api/env-keys', { SVC_MODEL: 'new-model', PROVIDERB_API_KEY: 'posted-secret-value-5' });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, saved: ['SVC_MODEL', 'PROVIDERB_API_KEY'], file: envFile() });
    expect(readFileSync(envFile(), 'utf8')).toBe(dotenvText.replace('SVC_MODEL=dotenv-model', 'SVC_MODEL=new-model') + 'PROVIDERB_API_KEY=posted-secret-value-5\n');
    expect(statSync(envFile()).mode & 0o777).toBe(0o600);
    // the saved variable is in effect at once, and listed without its value
    const settings = await v.get('/api/settings');
    expect([settings.body.llm_model, settings.body._sources.llm_model]).toEqual(['new-model', 'env SVC_MODEL']);
    const keys = await v.get('/api/env-keys');
    expect(keys.body.find((e: { name: string }) => e.name === 'PROVIDERB_API_KEY')).toMatchObject({ set: true, source: envFile() });
    expect(JSON.stringify(keys.body)).not.toContain('posted-secret-value-5');
  });

  test('POST also takes {keys: {...}} and creates the file', async () => {
    const v = await start();
    const { status, body } = await v.post('/api/env-keys', { keys: { SCHOLAR_API_KEY: 'one two' } });
    expect(status).toBe(200);
    expect(body.saved).toEqual(['SCHOLAR_API_KEY']);
    expect(readFileSync(envFile(), 'utf8')).toBe('SCHOLAR_API_KEY="one two"\n');
  });

  test('POST also takes the ARI web UI\'s {key, value}, with the same checks', async () => {
    const v = await start();
    const { status, body } = await v.post('/api/env-keys', { key: 'PROVIDERA_API_KEY', value: 'ui-secret-value-6' });
    expect(status).toBe(200);
    expect(body.saved).toEqual(['PROVIDERA_API_KEY']);
    expect(readFileSync(envFile(), 'utf8')).toBe('PROVIDERA_API_KEY=ui-secret-value-6\n');
    for (const [bad, message] of [
      [{ key: 'lower', value: 'x' }, "'lower' is not a variable name"],
      [{ key: 'PERL5OPT', value: '-MEvil' }, 'PERL5OPT is not a variable svc reads or a credential'],
      [{ key: 'SVC_MODEL', value: 7 }, 'the value of SVC_MODEL must be a string'],
      [{ key: 'SVC_MODEL', value: 'a\nb' }, 'spans lines'],
    ] as const) {
      const res = await v.post('/api/env-keys', bad);
      expect([res.status, res.body.error]).toEqual([400, expect.stringContaining(message)]);
    }
    expect(readFileSync(envFile(), 'utf8')).toBe('PROVIDERA_API_KEY=ui-secret-value-6\n');
  });

  test('bad names and values are a 400 and the .env is unchanged byte for byte', async () => {
    writeFileSync(envFile(), dotenvText);
    const v = await start();
    const cases: [unknown, string][] = [
      [{ 'bad-name': 'x' }, "'bad-name' is not a variable name"],
      [{ lower: 'x' }, "'lower' is not a variable name"],
      [{ SVC_MODEL: 'x', '9LIVES': 'x' }, "'9LIVES' is not a variable name"],
      // names that would change how programs run, not settings or credentials
      [{ PERL5OPT: '-MEvil' }, 'PERL5OPT is not a variable svc reads or a credential'],
      [{ LD_PRELOAD: '/tmp/x.so' }, 'LD_PRELOAD is not a variable svc reads or a credential'],
      [{ PATH: '/tmp' }, 'PATH is not a variable svc reads or a credential'],
      [{ SVC_MODEL: 'first\nINJECTED=1' }, 'the value of SVC_MODEL spans lines'],
      [{ keys: { SVC_MODEL: 'a\r\nb' } }, 'the value of SVC_MODEL spans lines'],
      [{ SVC_MODEL: 42 }, 'the value of SVC_MODEL must be a string'],
      [{}, 'nothing to save'],
      [['SVC_MODEL'], 'the body must be a JSON object'],
    ];
    for (const [body, message] of cases) {
      const res = await v.post('/api/env-keys', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(message);
      expect(res.body.error).not.toContain('INJECTED');
    }
    expect((await postRaw(v, '/api/env-keys', '{"SVC_MODEL": "x"')).status).toBe(400);
    expect(readFileSync(envFile(), 'utf8')).toBe(dotenvText);
  });

  test('a refused POST creates no .env', async () => {
    const v = await start();
    expect((await v.post('/api/env-keys', { A_TOKEN: 'x\ny' })).status).toBe(400);
    expect(existsSync(envFile())).toBe(false);
  });
});
