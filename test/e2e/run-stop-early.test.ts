import { afterAll, expect, test } from 'bun:test';
import { DEMO_EXPERIMENT, DEMO_MODEL, DEMO_WORKFLOW } from '../../scripts/record-demo.ts';
import { startModelServer } from '../support/model-server.ts';
import { type OpenAIChatRequest, researcherReply } from '../support/scripted-researcher.ts';
import { promptName } from '../support/scripted-request.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

// SIGINT while the ideas are being made: the request under way is given up and no other is made,
// so a run stops at once in every phase, not only during its search.

// an idea request is answered only after a minute: the stop has to cut it short
const server = startModelServer([], {
  respond: (body) => {
    const reply = researcherReply(body as OpenAIChatRequest);
    return promptName(body as OpenAIChatRequest)?.startsWith('idea/') ? { ...reply, delayMs: 60_000 } : reply;
  },
});
const root = tempDir('svc-stop-early-');
afterAll(() => {
  server.stop();
  removeDir(root);
});

const ideaRequests = () => server.requests.filter((r) => r.method === 'POST' && promptName(r.body as OpenAIChatRequest)?.startsWith('idea/')).length;

test('SIGINT during idea generation stops the run without waiting for the model or asking it again', async () => {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, NO_COLOR: '1', SVC_ROOT: root, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: DEMO_MODEL };
  const run = Bun.spawn([SVC, 'run', DEMO_EXPERIMENT, '--config', DEMO_WORKFLOW], { cwd: root, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  while (ideaRequests() === 0 && run.exitCode === null) await Bun.sleep(20);
  const asked = ideaRequests();
  run.kill('SIGINT');
  await run.exited;
  const stderr = await new Response(run.stderr).text();
  expect(stderr).toContain('SIGINT: stopping');
  expect(ideaRequests(), stderr).toBe(asked);
  expect(server.requests.filter((r) => r.method === 'POST' && promptName(r.body as OpenAIChatRequest)?.startsWith('agent/'))).toHaveLength(0);
}, 30_000);
