import { expect, test } from 'bun:test';
import { InputError } from '../../../../src/core/errors.ts';
import { generateConfig } from '../../../../src/llm/assist/generate-config.ts';
import type { ModelServer } from '../../../support/model-server.ts';
import { client, freshEachTest, rejection, type Sandbox } from '../helpers.ts';

let box: Sandbox;
let server: ModelServer;
freshEachTest((b, s) => {
  box = b;
  server = s;
});

const local = () => client(box, { LOCALLLM_HOST: server.url.slice(7), SVC_MODEL: 'qwen3:4b' });
const lastPrompt = () => (server.requests.at(-1)?.body as { messages: { content: string }[] }).messages.at(-1)?.content;

test('a key named like a property every object has is refused and sent back like any other', async () => {
  for (const key of ['constructor', 'toString', '__proto__']) {
    server.push({ text: `{"${key}": {"x": 1}}` }, { text: '{"bfts": {"max_nodes": 3}}' });
    const generated = await generateConfig(local(), { budget: 'small' }, {});
    expect(generated.yaml).toContain('max_nodes: 3');
    expect(lastPrompt()).toContain(`key '${key}' may not be set`);
  }
});

test('answers that are not an object are refused before any model is asked', async () => {
  for (const answers of ['compute on a cluster', [1, 2], null]) {
    const err = await rejection(generateConfig(local(), answers, {}));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe('answers must be an object of question: answer');
  }
  expect(server.requests).toHaveLength(0);
});
