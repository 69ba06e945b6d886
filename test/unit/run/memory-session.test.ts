// The note a run logs about its memory names the server without the user:password its URL may carry.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadConfig } from '../../../src/core/config/config.ts';
import { withMemoryEmbedding } from '../../../src/memory/embedding-handle.ts';
import { openRunMemory } from '../../../src/run/memory-session.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

describe('openRunMemory', () => {
  test('a silent server with SVC_MEMORY_BOOTSTRAP_LOCAL=none: no memory, and the note hides the credentials', async () => {
    const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') });
    const port = s.port as number;
    s.stop(true);
    const logged: string[] = [];
    const memory = await openRunMemory({ MEMBACKEND_BASE_URL: `http://user:pass@127.0.0.1:${port}`, SVC_MEMORY_BOOTSTRAP_LOCAL: 'none' }, '/nonexistent-checkpoint', { resume: false, log: (m) => logged.push(m) });
    expect(memory.client).toBeNull();
    expect(memory.note).toStartWith(`memory: none (http://127.0.0.1:${port} does not answer: memory server http://127.0.0.1:${port} (MEMBACKEND_BASE_URL): not reachable`);
    expect(JSON.stringify([memory.note, logged])).not.toContain('pass');
  });
});

describe('withMemoryEmbedding', () => {
  test("the one resolver names the memory model: settings.json, then the environment, then the workflow's embedding_config, then default", () => {
    const dir = tempDir();
    try {
      writeFileSync(join(dir, 'wf.yaml'), 'memory:\n  membackend:\n    embedding_config: localllm/nomic-embed-text\n');
      const cfg = loadConfig({ env: { SVC_ROOT: dir, HOME: dir }, cwd: dir, configPath: join(dir, 'wf.yaml') });
      expect(withMemoryEmbedding({}, cfg).MEMBACKEND_EMBEDDING_CONFIG).toBe('localllm/nomic-embed-text');
      expect(withMemoryEmbedding({ MEMBACKEND_EMBEDDING_CONFIG: 'providera/text-embedding-3-small' }, cfg).MEMBACKEND_EMBEDDING_CONFIG).toBe('providera/text-embedding-3-small');
      // the bundled workflow says default: no model
      expect(withMemoryEmbedding({}, loadConfig({ env: { SVC_ROOT: dir, HOME: dir }, cwd: dir })).MEMBACKEND_EMBEDDING_CONFIG).toBe('default');
      // saved on the dashboard's Settings page: it wins, as every setting saved there does
      const savedPath = loadConfig({ env: { SVC_ROOT: dir, HOME: dir }, cwd: dir }).savedPath;
      mkdirSync(dirname(savedPath), { recursive: true });
      writeFileSync(savedPath, JSON.stringify({ membackend_embedding_config: 'localllm/saved-embed' }));
      const saved = loadConfig({ env: { SVC_ROOT: dir, HOME: dir }, cwd: dir, configPath: join(dir, 'wf.yaml') });
      expect(withMemoryEmbedding({}, saved).MEMBACKEND_EMBEDDING_CONFIG).toBe('localllm/saved-embed');
      expect(withMemoryEmbedding({ MEMBACKEND_EMBEDDING_CONFIG: 'providera/text-embedding-3-small' }, saved).MEMBACKEND_EMBEDDING_CONFIG).toBe('localllm/saved-embed');
      // a replay asks what its cassette recorded (put in the environment by withRecordedEnv), whatever is saved
      expect(withMemoryEmbedding({ SVC_BACKEND: 'replay', MEMBACKEND_EMBEDDING_CONFIG: 'localllm/recorded-embed' }, saved).MEMBACKEND_EMBEDDING_CONFIG).toBe('localllm/recorded-embed');
      expect(withMemoryEmbedding({ SVC_BACKEND: 'replay' }, saved).MEMBACKEND_EMBEDDING_CONFIG).toBe('localllm/saved-embed');
    } finally {
      removeDir(dir);
    }
  });
});
