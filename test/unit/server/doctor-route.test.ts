// GET /api/doctor: the rows `svc doctor --json` prints, for the Settings page; keys stay out of it.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../../../src/server/app.ts';
import { ServerContext } from '../../../src/server/context.ts';
import { doctorRoutes } from '../../../src/server/routes/doctor.ts';
import { pathWith, removePathDirs } from '../../support/container.ts';
import { startModelServer } from '../../support/model-server.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const server = startModelServer([], { models: ['served-a'] });
const ws = tempDir();
afterAll(() => {
  server.stop();
  removeDir(ws);
  removePathDirs();
});

describe('GET /api/doctor', () => {
  test('answers {rows, ok}; the key from .env reaches the model list but not the answer', async () => {
    mkdirSync(join(ws, 'checkpoints'));
    writeFileSync(join(ws, '.env'), 'LLM_API_KEY=sk-from-dotenv\n');
    const env = { HOME: ws, PATH: pathWith([]), SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'served-a' };
    const ctx = new ServerContext(env, ws, join(ws, 'checkpoints'), null);
    const app = createApp(ctx).use(doctorRoutes(ctx));
    const res = await app.handle(new Request('http://127.0.0.1/api/doctor'));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { rows: { area: string; item: string; status: string }[]; ok: boolean };
    expect(body.ok).toBe(false);
    expect(body.rows.find((r) => r.item === 'served-a')).toMatchObject({ area: 'models', status: 'ok' });
    expect(body.rows.find((r) => r.item === 'openai-compatible key')?.status).toBe('ok');
    expect(server.requests.filter((r) => r.path === '/v1/models').at(-1)?.headers.authorization).toBe('Bearer sk-from-dotenv');
    expect(JSON.stringify(body)).not.toContain('sk-from-dotenv');
  });
});
