import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../../src/core/config/config.ts';
import { saveSettings } from '../../../../src/core/config/saved-settings.ts';
import { updateSettings } from '../../../../src/core/config/update-settings.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let project: string;
beforeEach(() => {
  project = tempDir();
  mkdirSync(join(project, 'workspace', 'checkpoints'), { recursive: true });
});
afterEach(() => removeDir(project));

const cfg = (env: Record<string, string> = {}) => loadConfig({ cwd: project, env: { HOME: project, ...env } });
const settingsFile = () => join(project, 'workspace', 'settings.json');

describe('updateSettings', () => {
  test('plain values go to settings.json and become effective', () => {
    const changes = updateSettings(cfg(), { model: 'm1', partition: 'gpu', cpus: '16', mem_gb: '64' });
    expect(changes.map((c) => c.what)).toEqual(['llm_model = m1', 'slurm_partition = gpu', 'slurm_cpus = 16', 'slurm_memory_gb = 64']);
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({ llm_model: 'm1', slurm_partition: 'gpu', slurm_cpus: 16, slurm_memory_gb: 64 });
  });

  test('the API key goes to .env (mode 600), never to settings.json', () => {
    updateSettings(cfg({ SVC_BACKEND: 'providera' }), { api_key: 'sk-secret-1' });
    const env = readFileSync(join(project, '.env'), 'utf8');
    expect(env).toBe('PROVIDERA_API_KEY=sk-secret-1\n');
    expect(statSync(join(project, '.env')).mode & 0o777).toBe(0o600);
    expect(existsSync(settingsFile())).toBe(false);
  });

  test('a backend without keys refuses an API key and writes nothing', () => {
    expect(() => updateSettings(cfg(), { api_key: 'k', model: 'm' })).toThrow('the localllm backend takes no API key');
    expect(existsSync(join(project, '.env'))).toBe(false);
    expect(existsSync(settingsFile())).toBe(false);
  });

  test('an API key .env cannot hold is refused before settings.json is written', () => {
    expect(() => updateSettings(cfg({ SVC_BACKEND: 'providera' }), { model: 'new', api_key: `a"b'c` })).toThrow('cannot hold both kinds of quote');
    expect(existsSync(settingsFile())).toBe(false);
    expect(existsSync(join(project, '.env'))).toBe(false);
  });

  test('bad numbers are refused before anything is written', () => {
    writeFileSync(settingsFile(), '{"llm_model": "keep"}');
    expect(() => updateSettings(cfg(), { model: 'new', cpus: 'eight' })).toThrow("--cpus must be a positive whole number, got 'eight'");
    expect(() => updateSettings(cfg(), { mem_gb: '-1' })).toThrow('--mem must be a positive number');
    expect(readFileSync(settingsFile(), 'utf8')).toBe('{"llm_model": "keep"}');
  });

  test('a malformed settings.json is an error naming it, and is left alone', () => {
    writeFileSync(settingsFile(), '{"llm_model": ');
    expect(() => cfg()).toThrow(`${settingsFile()} is not valid JSON`);
    expect(readFileSync(settingsFile(), 'utf8')).toBe('{"llm_model": ');
  });

  test('saveSettings refuses secret-looking keys', () => {
    expect(() => saveSettings(settingsFile(), { llm_api_key: 'x' })).toThrow('secrets go to .env');
    expect(existsSync(settingsFile())).toBe(false);
  });
});
