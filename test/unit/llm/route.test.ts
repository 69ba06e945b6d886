import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/core/config/config.ts';
import { BUILTIN_MODELS } from '../../../src/core/config/settings.ts';
import { InputError } from '../../../src/core/errors.ts';
import { daemonUrl, type ModelRole, modelFor } from '../../../src/llm/route.ts';
import { type Sandbox, sandbox } from './helpers.ts';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.close());

const route = (role: ModelRole, env: Record<string, string> = {}) => modelFor(role, box.load(env));

describe('run-model roles: own variable, then the run model', () => {
  test('the run model: SVC_MODEL over SVC_LLM_MODEL over the workflow', () => {
    expect(route('run')).toEqual({
      role: 'run',
      model: 'qwen3:4b',
      backend: 'localllm',
      baseUrl: 'http://127.0.0.1:11434',
      why: 'model qwen3:4b from (bundled workflow.yaml): llm.model; backend localllm from (bundled workflow.yaml): llm.backend',
    });
    expect(route('run', { SVC_LLM_MODEL: 'b' }).model).toBe('b');
    expect(route('run', { SVC_MODEL: 'a', SVC_LLM_MODEL: 'b' }).why).toStartWith('model a from env SVC_MODEL;');
  });

  for (const [role, variable] of [['idea', 'SVC_MODEL_IDEA'], ['bfts', 'SVC_MODEL_BFTS'], ['paper', 'SVC_MODEL_PAPER'], ['eval', 'SVC_MODEL_EVAL']] as const) {
    test(`${role}: ${variable}, else the run model`, () => {
      expect(route(role, { [variable]: 'own', SVC_MODEL: 'run-model' })).toMatchObject({ model: 'own', backend: 'localllm' });
      expect(route(role, { [variable]: 'own' }).why).toContain(`from env ${variable};`);
      expect(route(role, { SVC_MODEL: 'run-model' }).why).toStartWith('model run-model from env SVC_MODEL (as model);');
      expect(route(role).why).toStartWith('model qwen3:4b from (bundled workflow.yaml): llm.model (as model);');
    });
  }
});

describe('judges: own variable, SVC_MODEL_EVAL, SVC_MODEL, SVC_LLM_MODEL, then a built-in hosted model', () => {
  for (const [role, variable] of [['lineage', 'SVC_MODEL_LINEAGE'], ['root_select', 'SVC_MODEL_ROOT_SELECT']] as const) {
    test(role, () => {
      const full = { [variable]: 'own', SVC_MODEL_EVAL: 'eval', SVC_MODEL: 'run', SVC_LLM_MODEL: 'llm' };
      expect(route(role, full).why).toStartWith(`model own from env ${variable};`);
      expect(route(role, { ...full, [variable]: '' }).why).toStartWith('model eval from env SVC_MODEL_EVAL;');
      expect(route(role, { SVC_MODEL: 'run', SVC_LLM_MODEL: 'llm' }).why).toStartWith('model run from env SVC_MODEL;');
      expect(route(role, { SVC_LLM_MODEL: 'llm' }).why).toStartWith('model llm from env SVC_LLM_MODEL;');
      // the workflow's model is not in the chain: the built-in judge, on the hosted backend that serves it
      expect(route(role)).toMatchObject({ model: BUILTIN_MODELS.judge, backend: 'providera', baseUrl: null });
      expect(route(role).why).toBe(`model ${BUILTIN_MODELS.judge} from built-in default; backend localllm from (bundled workflow.yaml): llm.backend; the built-in hosted model goes to providera, localllm does not serve it`);
    });
  }
});

describe('roles with a built-in model', () => {
  for (const [role, variable, builtin] of [
    ['rubric_gen', 'SVC_MODEL_RUBRIC_GEN', BUILTIN_MODELS.replication],
    ['rubric_audit', 'SVC_MODEL_RUBRIC_AUDIT', BUILTIN_MODELS.replication],
    ['replicate', 'SVC_MODEL_REPLICATE', BUILTIN_MODELS.replication],
    ['judge', 'SVC_MODEL_JUDGE', BUILTIN_MODELS.replication],
    ['vlm', 'VLM_MODEL', BUILTIN_MODELS.vision],
  ] as const) {
    test(`${role}: ${variable}, else ${builtin}`, () => {
      expect(route(role, { [variable]: 'mine', SVC_MODEL: 'run' })).toMatchObject({ model: 'mine', backend: 'localllm' });
      expect(route(role, { SVC_MODEL: 'run' })).toMatchObject({ model: builtin, backend: 'providera' });
      // an explicitly chosen hosted id stays on the configured backend: the user asked for it there
      expect(route(role, { [variable]: builtin }).backend).toBe('localllm');
    });
  }

  test('the built-in gpt model leaves providerb for providera, and stays on an openai-compatible proxy', () => {
    expect(route('judge', { SVC_BACKEND: 'providerb' }).backend).toBe('providera');
    expect(route('judge', { SVC_BACKEND: 'providera' }).backend).toBe('providera');
    expect(route('judge', { SVC_BACKEND: 'openai-compatible', LLM_API_BASE: 'http://proxy/v1' })).toMatchObject({ backend: 'openai-compatible', baseUrl: 'http://proxy/v1' });
  });
});

describe('backends', () => {
  test('aliases and case', () => {
    expect(route('run', { SVC_BACKEND: 'openai' }).backend).toBe('providera');
    expect(route('run', { SVC_BACKEND: 'Anthropic' }).backend).toBe('providerb');
    expect(route('run', { SVC_BACKEND: 'ollama' }).backend).toBe('localllm');
    expect(route('run', { SVC_BACKEND: 'vllm', LLM_API_BASE: 'http://gpu:8000/v1/' })).toMatchObject({ backend: 'openai-compatible', baseUrl: 'http://gpu:8000/v1' });
  });

  test('an unknown backend lists the valid ones', () => {
    expect(() => route('run', { SVC_BACKEND: 'gemini' })).toThrow(InputError);
    expect(() => route('run', { SVC_BACKEND: 'gemini' })).toThrow("unknown model backend 'gemini' from env SVC_BACKEND");
    try {
      route('run', { SVC_BACKEND: 'gemini' });
    } catch (err) {
      expect((err as InputError).hint).toBe('use one of localllm, providera, providerb, openai-compatible, replay, or an alias: openai (providera), anthropic (providerb), ollama (localllm), vllm (openai-compatible)');
    }
  });

  test('openai-compatible without a base URL', () => {
    expect(() => route('run', { SVC_BACKEND: 'openai-compatible' })).toThrow('the openai-compatible backend needs an API base URL');
  });

  test('the workflow base_url beats LLM_API_BASE; it belongs to the configured backend only', () => {
    const wf = join(box.dir, 'wf.yaml');
    writeFileSync(wf, 'llm: {backend: providera, model: gpt-4o, base_url: "http://gateway/v1"}\n');
    const cfg = loadConfig({ cwd: box.project, env: { HOME: box.dir, LLM_API_BASE: 'http://other/v1', SVC_MODEL_PAPER: 'providerb/claude-x' }, configPath: wf });
    expect(modelFor('run', cfg)).toMatchObject({ backend: 'providera', baseUrl: 'http://gateway/v1' });
    expect(modelFor('paper', cfg)).toMatchObject({ backend: 'providerb', model: 'claude-x', baseUrl: null });
  });

  test('a workflow with an empty model', () => {
    const wf = join(box.dir, 'wf.yaml');
    writeFileSync(wf, 'llm: {backend: localllm, model: ""}\n');
    const cfg = loadConfig({ cwd: box.project, env: { HOME: box.dir }, configPath: wf });
    expect(() => modelFor('bfts', cfg)).toThrow('no model is configured for the bfts role (model_bfts)');
  });
});

describe('model id prefixes', () => {
  test('a backend name selects that backend and is not sent as part of the id', () => {
    expect(route('run', { SVC_MODEL: 'providerb/claude-x' })).toMatchObject({ model: 'claude-x', backend: 'providerb' });
    expect(route('run', { SVC_MODEL: 'providerb/claude-x' }).why).toBe("model claude-x from env SVC_MODEL; backend localllm from (bundled workflow.yaml): llm.backend; the model id prefix 'providerb/' selects providerb");
    expect(route('run', { SVC_MODEL: 'anthropic/claude-x' }).backend).toBe('providerb');
    expect(route('run', { SVC_BACKEND: 'providera', SVC_MODEL: 'localllm/qwen3:8b' })).toMatchObject({ model: 'qwen3:8b', backend: 'localllm' });
  });

  test('other slashes are part of the id', () => {
    expect(route('run', { SVC_BACKEND: 'vllm', LLM_API_BASE: 'http://h/v1', SVC_MODEL: 'meta-llama/Llama-3.1-8B-Instruct' })).toMatchObject({ model: 'meta-llama/Llama-3.1-8B-Instruct', backend: 'openai-compatible' });
    // on an openai-compatible server, an alias prefix is the server's own model name
    expect(route('run', { SVC_BACKEND: 'vllm', LLM_API_BASE: 'http://h/v1', SVC_MODEL: 'openai/gpt-oss-20b' })).toMatchObject({ model: 'openai/gpt-oss-20b', backend: 'openai-compatible' });
  });

  test('replay answers every role, whatever the prefix', () => {
    expect(route('run', { SVC_BACKEND: 'replay', SVC_MODEL: 'providerb/claude-x' })).toMatchObject({ model: 'claude-x', backend: 'replay', baseUrl: null });
    expect(route('judge', { SVC_BACKEND: 'replay' })).toMatchObject({ model: BUILTIN_MODELS.replication, backend: 'replay' });
  });
});

test('LOCALLLM_HOST forms', () => {
  expect(daemonUrl('127.0.0.1:11434')).toBe('http://127.0.0.1:11434');
  expect(daemonUrl('gpu-node')).toBe('http://gpu-node:11434');
  expect(daemonUrl('https://llm.example.org/')).toBe('https://llm.example.org');
  expect(daemonUrl('http://10.0.0.5:8080')).toBe('http://10.0.0.5:8080');
  expect(daemonUrl('http://10.0.0.5:11434/v1/')).toBe('http://10.0.0.5:11434');
  expect(() => daemonUrl('http://[bad')).toThrow("LOCALLLM_HOST 'http://[bad' is not a host:port or a URL");
  expect(route('run', { LOCALLLM_HOST: 'gpu-node:9999' }).baseUrl).toBe('http://gpu-node:9999');
});
