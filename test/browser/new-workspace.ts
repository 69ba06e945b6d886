import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_MODEL } from '../../scripts/record-demo.ts';
import type { Workspace } from '../support/browser.ts';
import { type ModelServer, startModelServer } from '../support/model-server.ts';
import { type OpenAIChatRequest, researcherReply } from '../support/scripted-researcher.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz } from '../support/viz.ts';

/** The models the scripted server's local-daemon face lists. */
export const LISTED_MODELS = ['qwen3:4b', DEMO_MODEL];

/** What the model answers in the goal conversation: a question, and the goal rewritten. */
export const CHAT_REPLY = 'Which input sizes should the comparison cover?';
export const REFINED_GOAL = '# Fewer comparisons\n\n## Research Goal\nCount the comparisons of insertion sort against merge sort on seeded arrays of 1000 integers.\n';

/** The first instruction of POST /api/chat-goal (src/llm/assist/chat-goal.ts). */
const CHAT_GOAL_PROMPT = 'You help a researcher turn a research goal';

/**
 * A scripted model server answering the wizard's goal conversation, and every prompt of a run as
 * the demo's scripted researcher does (the run writes, runs and measures real code).
 */
export function wizardModelServer(): ModelServer {
  return startModelServer([], {
    models: LISTED_MODELS,
    respond: (body) => {
      if (JSON.stringify(body).includes(CHAT_GOAL_PROMPT)) return { text: JSON.stringify({ reply: CHAT_REPLY, goal: REFINED_GOAL }) };
      return researcherReply(body as OpenAIChatRequest);
    },
  });
}

/**
 * An empty workspace served by `svc viz`, whose model is the scripted server: its OpenAI-compatible
 * face for the run and the goal conversation, its local-daemon face for the model list.
 */
export async function serveWizardWorkspace(server: ModelServer, extraEnv: Record<string, string> = {}): Promise<Workspace> {
  const dir = tempDir('svc-browser-new-');
  const checkpoints = join(dir, 'workspace', 'checkpoints');
  mkdirSync(checkpoints, { recursive: true });
  const env = { SVC_BACKEND: 'openai-compatible', SVC_MODEL: DEMO_MODEL, LLM_API_BASE: `${server.url}/v1`, LOCALLLM_HOST: `127.0.0.1:${server.port}`, ...extraEnv };
  const viz = await startViz([checkpoints], { cwd: dir, env });
  return {
    dir,
    checkpoints,
    viz,
    close: async () => {
      await viz.post('/api/stop');
      await viz.stop();
      removeDir(dir);
    },
  };
}
