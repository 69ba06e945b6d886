import { describe, expect, test } from 'bun:test';
import { ModelAnswerError } from '../../../src/llm/errors.ts';
import { JSON_INSTRUCTION, parseJsonAnswer } from '../../../src/llm/json-answer.ts';
import type { ModelServer } from '../../support/model-server.ts';
import { client, freshEachTest, rejection, type Sandbox } from './helpers.ts';

let box: Sandbox;
let server: ModelServer;
freshEachTest((b, s) => {
  box = b;
  server = s;
});

type Sent = { messages: { role: string; content: string }[] };
const sent = (i: number) => (server.requests[i]?.body as Sent).messages;
const json = () => client(box, { LOCALLLM_HOST: server.url.slice(7) });
const ASK = { role: 'eval' as const, messages: [{ role: 'user' as const, content: 'score the node' }] };
const hasScore = (v: unknown) => (typeof (v as { score?: unknown })?.score === 'number' ? null : 'it has no numeric "score" field');

describe('completeJson', () => {
  test('asks for JSON and reads a fenced answer', async () => {
    server.push({ text: 'Here you go:\n```json\n{"score": 0.8}\n```' });
    expect(await json().completeJson(ASK, hasScore)).toEqual({ score: 0.8 });
    expect(sent(0)[0]).toEqual({ role: 'system', content: JSON_INSTRUCTION });
    expect(server.requests).toHaveLength(1);
  });

  test('invalid JSON: asked again with the answer and what was wrong with it', async () => {
    server.push({ text: 'score: high' }, { text: '{"score": 1}' });
    expect(await json().completeJson(ASK)).toEqual({ score: 1 });
    const retry = sent(1);
    expect(retry.at(-2)).toEqual({ role: 'assistant', content: 'score: high' });
    expect(retry.at(-1)?.role).toBe('user');
    expect(retry.at(-1)?.content).toMatch(/^Your answer was not valid JSON \(.+\)\. Answer again with only the corrected JSON value\.$/);
  });

  test("a failed check: the corrective message carries the check's words", async () => {
    server.push({ text: '{"grade": "A"}' }, { text: '{"score": 0.5}' });
    expect(await json().completeJson(ASK, hasScore)).toEqual({ score: 0.5 });
    expect(sent(1).at(-1)?.content).toBe('Your answer was rejected: it has no numeric "score" field. Answer again with only the corrected JSON value.');
  });

  test('still wrong after the retry: a clear error, nothing more asked', async () => {
    server.push({ text: 'nope' }, { text: '{"grade": "A"}' }, { text: '{"score": 1}' });
    const err = await rejection(json().completeJson(ASK, hasScore));
    expect(err).toBeInstanceOf(ModelAnswerError);
    expect(err.message).toBe('the eval model qwen3:4b gave no acceptable JSON in 2 attempts: the last answer was it has no numeric "score" field');
    expect(server.requests).toHaveLength(2);
  });

  test('the number of retries is the caller’s', async () => {
    server.push({ text: 'x' }, { text: 'y' }, { text: '[1, 2]' });
    expect(await json().completeJson(ASK, undefined, { retries: 2 })).toEqual([1, 2]);
    expect(server.requests).toHaveLength(3);
    server.push({ text: 'still prose' });
    const err = await rejection(json().completeJson(ASK, undefined, { retries: 0 }));
    expect(err.message).toStartWith('the eval model qwen3:4b gave no acceptable JSON in 1 attempt: the last answer was not valid JSON (');
    expect(server.requests).toHaveLength(4);
  });
});

test('parseJsonAnswer', () => {
  expect(parseJsonAnswer('{"a": 1}')).toEqual({ value: { a: 1 } });
  expect(parseJsonAnswer('```\n[1]\n```')).toEqual({ value: [1] });
  expect(parseJsonAnswer('<think>maybe {"a": 0}</think>\n{"a": 2}')).toEqual({ value: { a: 2 } });
  expect(parseJsonAnswer('The result is {"a": 3}. Hope that helps.')).toEqual({ value: { a: 3 } });
  expect(parseJsonAnswer('true')).toEqual({ value: true });
  expect(parseJsonAnswer('   ')).toEqual({ error: 'the answer was empty' });
  expect(parseJsonAnswer('{"a": ')).toHaveProperty('error');
});

test('reasoning spans: several, nested, unclosed; and an answer of unclosed tags is read in one pass', () => {
  expect(parseJsonAnswer('<think>a</think>{"a": <think>b</think>4}')).toEqual({ value: { a: 4 } });
  expect(parseJsonAnswer('<think>x<think>y</think>{"a": 5}')).toEqual({ value: { a: 5 } });
  expect(parseJsonAnswer('{"a": 6} <think>cut off')).toEqual({ value: { a: 6 } });
  // a lazy pattern read the rest again from every tag: minutes for this answer
  expect(parseJsonAnswer(`${'<think>'.repeat(150_000)}{"a": 7}`)).toEqual({ value: { a: 7 } });
}, 20_000);

test('a leading system prompt keeps its first line: the JSON instruction follows it', async () => {
  server.push({ text: '{"score": 0.5}' });
  await json().completeJson({ role: 'eval', messages: [{ role: 'system', content: '<!-- prompt: evaluator/judge -->\nJudge it.' }, { role: 'user', content: 'node' }] }, hasScore);
  expect(sent(0)[0]).toEqual({ role: 'system', content: `<!-- prompt: evaluator/judge -->\nJudge it.\n\n${JSON_INSTRUCTION}` });
  expect(sent(0)).toHaveLength(2);
});
