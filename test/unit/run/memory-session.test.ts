// The note a run logs about its memory names the server without the user:password its URL may carry.
import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/core/config/config.ts';
import { withWorkflowMemory } from '../../../src/memory/embedding-handle.ts';
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

describe('withWorkflowMemory', () => {
  test("the workflow's embedding_config names the memory model unless the environment does", () => {
    const dir = tempDir();
    try {
      writeFileSync(join(dir, 'wf.yaml'), 'memory:\n  membackend:\n    embedding_config: localllm/nomic-embed-text\n');
      const cfg = loadConfig({ env: { SVC_ROOT: dir, HOME: dir }, cwd: dir, configPath: join(dir, 'wf.yaml') });
      expect(withWorkflowMemory({}, cfg).MEMBACKEND_EMBEDDING_CONFIG).toBe('localllm/nomic-embed-text');
      expect(withWorkflowMemory({ MEMBACKEND_EMBEDDING_CONFIG: 'providera/text-embedding-3-small' }, cfg).MEMBACKEND_EMBEDDING_CONFIG).toBe('providera/text-embedding-3-small');
      // the bundled workflow says default: no model
      expect(withWorkflowMemory({}, loadConfig({ env: { SVC_ROOT: dir, HOME: dir }, cwd: dir })).MEMBACKEND_EMBEDDING_CONFIG).toBe('default');
    } finally {
      removeDir(dir);
    }
  });
});
