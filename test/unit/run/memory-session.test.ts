// The note a run logs about its memory names the server without the user:password its URL may carry.
import { describe, expect, test } from 'bun:test';
import { openRunMemory } from '../../../src/run/memory-session.ts';

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
