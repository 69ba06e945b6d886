import type { EmbeddingModel, LanguageModel } from 'ai';
import type { Env } from '../core/config/env-vars.ts';
import { ModelKeyError } from './errors.ts';
import { InputError, TooLargeError } from '../core/errors.ts';
import { cappedFetch } from '../core/outbound.ts';
import { KEY_VARIABLE } from '../core/config/env-vars.ts';
import type { ModelChoice } from './route.ts';

/** Far above any model's answer: a 128k-token answer is about half a megabyte of JSON. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

const tooLargeAnswer = (origin: string) => new TooLargeError(`the model server at ${origin} sent more than ${MAX_ANSWER_BYTES} bytes for one answer`, 'check the API base: no model answers that much');

/**
 * The SDK model object for a choice. Provider packages are imported here, on the first call,
 * so commands that never call a model do not pay for loading them.
 */
export async function sdkModel(choice: ModelChoice, env: Env, given?: typeof globalThis.fetch): Promise<LanguageModel> {
  const key = apiKey(choice, env);
  const fetch = cappedFetch(given ?? ((input, init) => globalThis.fetch(input, init)), MAX_ANSWER_BYTES, tooLargeAnswer);
  const baseURL = choice.baseUrl ?? undefined;
  switch (choice.backend) {
    case 'localllm': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({ name: 'localllm', baseURL: `${choice.baseUrl}/v1`, includeUsage: true, fetch })(choice.model);
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({ name: 'openai-compatible', baseURL: baseURL as string, apiKey: key ?? undefined, includeUsage: true, fetch })(choice.model);
    }
    case 'providera': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      // chat completions: the protocol every OpenAI-compatible server and proxy speaks
      return createOpenAI({ apiKey: key ?? undefined, baseURL, fetch }).chat(choice.model);
    }
    case 'providerb': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({ apiKey: key ?? undefined, baseURL, fetch })(choice.model);
    }
    case 'replay':
      throw new Error('the replay backend answers from its cassette, not through a provider');
  }
}

/**
 * The SDK embedding model for a choice: OpenAI's `/v1/embeddings` and every server speaking it.
 * Null for the local daemon, whose own `/api/embed` is called directly (embeddings.ts).
 */
export async function sdkEmbeddingModel(choice: ModelChoice, env: Env, given?: typeof globalThis.fetch): Promise<EmbeddingModel | null> {
  const key = apiKey(choice, env);
  const fetch = cappedFetch(given ?? ((input, init) => globalThis.fetch(input, init)), MAX_ANSWER_BYTES, tooLargeAnswer);
  switch (choice.backend) {
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({ name: 'openai-compatible', baseURL: choice.baseUrl as string, apiKey: key ?? undefined, fetch }).embeddingModel(choice.model);
    }
    case 'providera': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ apiKey: key ?? undefined, baseURL: choice.baseUrl ?? undefined, fetch }).embedding(choice.model);
    }
    case 'providerb':
      throw noEmbeddingsApi(choice);
    case 'localllm':
      return null;
    case 'replay':
      throw new Error('the replay backend answers from its cassette, not through a provider');
  }
}

/** The error for an embedding model on a backend that has no embeddings API (Anthropic's). */
export function noEmbeddingsApi(choice: ModelChoice): InputError {
  return new InputError(`${choice.backend} has no embeddings API, so it cannot serve the embedding model ${choice.model}`, 'name an embedding model of another backend, e.g. providera/text-embedding-3-small or localllm/nomic-embed-text');
}

/**
 * The key a hosted backend needs, or an InputError naming its variable before any request is
 * made. openai-compatible servers often need none, so LLM_API_KEY is optional.
 */
export function apiKey(choice: ModelChoice, env: Env): string | null {
  const variable = KEY_VARIABLE[choice.backend];
  if (!variable) return null;
  const key = env[variable];
  if (key) return key;
  if (choice.backend === 'openai-compatible') return null;
  throw new ModelKeyError(`${variable} is not set: ${choice.backend} needs it for the ${choice.role} model ${choice.model}`, `set ${variable} in the environment or a .env file, or choose another backend (SVC_BACKEND)`);
}
