// All checks at once: the areas in their order, a check that throws or hangs is one failing row,
// and the verdict counts only what the workflow needs.
import { afterAll, describe, expect, test } from 'bun:test';
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
    const rows = await guarded('models', 1000, async () => {
      throw new InputError('unknown model backend', 'use one of localllm, providera');
    });
    expect(rows).toEqual([{ area: 'models', item: 'check', status: 'fail', detail: 'unknown model backend (use one of localllm, providera)', needed: true }]);
  });

  test('a check that does not finish in time is a failing row', async () => {
    const rows = await guarded('executor', 50, () => new Promise(() => {}));
    expect(rows).toEqual([{ area: 'executor', item: 'check', status: 'fail', detail: 'the check gave no answer in 0.05 s', needed: true }]);
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

  test('a needed failure makes the report fail', async () => {
    const { cfg } = project({ PATH: pathWith([]), SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'served-a' });
    const report = await runDoctor(cfg);
    expect(report.ok).toBe(false);
    expect(report.rows.filter((r) => r.status === 'fail' && r.needed).map((r) => `${r.area} ${r.item}`)).toContain('latex pdflatex');
  });
});
