// All checks at once: the areas in their order, a check that throws or hangs is one failing row,
// and the verdict counts only what the workflow needs.
import { afterAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { doctorOk, runDoctor } from '../../../src/doctor/doctor.ts';
import { guarded, row } from '../../../src/doctor/row.ts';
import { InputError } from '../../../src/core/errors.ts';
import { pathWith, removePathDirs } from '../../support/container.ts';
import { startModelServer } from '../../support/model-server.ts';
import { NO_PIPELINE, project, removeBoxes } from './helpers.ts';

const server = startModelServer([], { models: ['served-a'] });
afterAll(() => {
  server.stop();
  removeBoxes();
  removePathDirs();
});

describe('guarded', () => {
  test('a check that throws is one failing row naming the error and its fix', async () => {
    const rows = await guarded('models', true, 1000, async () => {
      throw new InputError('unknown model backend', 'use one of localllm, providera');
    });
    expect(rows).toEqual([{ area: 'models', item: 'check', status: 'fail', detail: 'unknown model backend (use one of localllm, providera)', needed: true }]);
  });

  test('a check that does not finish in time is a failing row', async () => {
    const rows = await guarded('executor', true, 50, () => new Promise(() => {}));
    expect(rows).toEqual([{ area: 'executor', item: 'check', status: 'fail', detail: 'the check gave no answer in 0.05 s', needed: true }]);
  });

  test("the failing row is needed only as the area is: a broken area the workflow does not use fails nothing", async () => {
    const rows = await guarded('registry', false, 1000, async () => {
      throw new InputError('registries file x is malformed');
    });
    expect(rows).toEqual([{ area: 'registry', item: 'check', status: 'fail', detail: 'registries file x is malformed', needed: false }]);
    expect(doctorOk(rows)).toBe(true);
  });
});

describe('doctorOk', () => {
  test('only a failing row the workflow needs fails the report', () => {
    expect(doctorOk([row('latex', 'pdflatex', 'fail', 'x', false), row('disk', 'workspace', 'warn', 'y', true)])).toBe(true);
    expect(doctorOk([row('models', 'providera key', 'fail', 'x', true)])).toBe(false);
  });
});

describe('runDoctor', () => {
  test('every area in order, on a machine with nothing but a model server', async () => {
    const { cfg } = project({ PATH: pathWith([]), SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'served-a', MEMBACKEND_BASE_URL: 'http://127.0.0.1:9' }, NO_PIPELINE);
    const report = await runDoctor(cfg);
    const areas = [...new Set(report.rows.map((r) => r.area))];
    expect(areas).toEqual(['models', 'memory', 'executor', 'containers', 'latex', 'pdf', 'disk', 'registry']);
    // no paper stages, local executor, no image: what is missing here is not needed
    expect(report.ok).toBe(true);
    expect(report.rows.filter((r) => r.status === 'fail' && r.needed)).toEqual([]);
  });

  test('a malformed registries file with no publish stage is a failing row the report does not need', async () => {
    const { dir } = project();
    writeFileSync(join(dir, 'registries.yaml'), 'registries: [ {');
    const { cfg } = project({ PATH: pathWith([]), SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'served-a', MEMBACKEND_BASE_URL: 'http://127.0.0.1:9', SVC_REGISTRIES_FILE: join(dir, 'registries.yaml') }, NO_PIPELINE);
    const report = await runDoctor(cfg);
    expect(report.rows.filter((r) => r.area === 'registry')).toEqual([expect.objectContaining({ item: 'check', status: 'fail', needed: false })]);
    expect(report.rows.find((r) => r.area === 'registry')?.detail).toContain('is malformed');
    expect(report.ok).toBe(true);
  });

  test('credentials in the memory and local daemon URLs appear in no row', async () => {
    const { cfg } = project({ PATH: pathWith([]), SVC_BACKEND: 'localllm', SVC_MODEL: 'served-a', LOCALLLM_HOST: 'http://user:pass@127.0.0.1:9', MEMBACKEND_BASE_URL: 'http://user:pass@127.0.0.1:9' }, NO_PIPELINE);
    const report = await runDoctor(cfg);
    expect(report.rows.find((r) => r.area === 'memory')?.detail).toStartWith('memory server http://127.0.0.1:9 ');
    expect(report.rows.find((r) => r.item === 'localllm endpoint')?.detail).toBe('local model daemon at http://127.0.0.1:9: not reachable');
    expect(JSON.stringify(report)).not.toContain('pass@');
  });

  test('a needed failure makes the report fail', async () => {
    const { cfg } = project({ PATH: pathWith([]), SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'served-a' });
    const report = await runDoctor(cfg);
    expect(report.ok).toBe(false);
    expect(report.rows.filter((r) => r.status === 'fail' && r.needed).map((r) => `${r.area} ${r.item}`)).toContain('latex pdflatex');
  });
});
