import { afterEach, beforeEach, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_EXPERIMENT, DEMO_MODEL, DEMO_WORKFLOW } from '../../scripts/record-demo.ts';
import { type ModelServer, startModelServer } from '../support/model-server.ts';
import { type OpenAIChatRequest, researcherReply } from '../support/scripted-researcher.ts';
import { promptName } from '../support/scripted-request.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

// svc run --ma-live with the multi-agent flags: they reach the idea skill's process, whose
// engine builds its teams from the demo's literature and writes idea.json as real_wrap.

let dir: string;
let server: ModelServer;
beforeEach(() => {
  dir = tempDir('svc-run-ma-');
  server = startModelServer([], { respond: (body) => researcherReply(body as OpenAIChatRequest) });
});
afterEach(() => {
  server.stop();
  removeDir(dir);
});

/** The run's checkpoint once it holds `file`, or null when the run ended first or time ran out. */
async function checkpointWith(file: string, run: Bun.Subprocess): Promise<string | null> {
  for (let i = 0; i < 600; i++) {
    const root = join(dir, 'workspace', 'checkpoints');
    const id = existsSync(root) ? readdirSync(root).find((n) => !n.startsWith('.')) : undefined;
    if (id && existsSync(join(root, id, file))) return join(root, id);
    if (run.exitCode !== null) return null;
    await Bun.sleep(100);
  }
  return null;
}

test('svc run --ma-live --ma-k 1 --ma-team-size 2 --ma-n-authors 3: the run\'s ideas come from teams of two discussing one round', async () => {
  const env = { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1', SVC_ROOT: dir, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: DEMO_MODEL, SVC_IDEA_MA_EMBED_MODEL: 'scripted-embed' };
  const args = [SVC, 'run', DEMO_EXPERIMENT, '--config', DEMO_WORKFLOW, '--ma-live', '--ma-k', '1', '--ma-team-size', '2', '--ma-n-authors', '3'];
  const run = Bun.spawn(args, { cwd: dir, env, stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
  // read as it comes, so a chatty run never blocks on a full pipe
  const stderr = new Response(run.stderr).text();
  try {
    const checkpoint = await checkpointWith('idea.json', run);
    expect(checkpoint, run.exitCode === null ? 'idea.json never appeared' : await stderr).not.toBeNull();
    const idea = JSON.parse(readFileSync(join(checkpoint as string, 'idea.json'), 'utf8'));
    expect(idea).toMatchObject({ ma_integration_status: 'real_wrap', n_agents: 2, discussion_rounds: 1, primary_metric: 'comparisons' });
    const teams = JSON.parse(readFileSync(join(checkpoint as string, 'idea_teams.json'), 'utf8'));
    expect(teams.settings).toMatchObject({ k: 1, team_size: 2, n_authors: 3, live: true, embed_model: 'scripted-embed' });
    expect(teams.authors.length).toBeLessThanOrEqual(3);
    expect(teams.snapshot.corpus).toBeGreaterThan(0);
    for (const t of teams.teams) expect(t.turns.map((x: { op: string }) => x.op)).toEqual(['propose', 'revise']);
    const names = server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => promptName(r.body as OpenAIChatRequest));
    expect(names).toContain('idea/ma_propose');
    expect(names).not.toContain('idea/agent');
    expect(existsSync(join(checkpoint as string, 'idea_snapshot', 'papers.jsonl'))).toBe(true);
  } finally {
    run.kill();
    await run.exited;
  }
}, 120_000);
