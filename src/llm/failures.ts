import { KEY_VARIABLE } from '../core/config/env-vars.ts';
import { withoutCredentials } from '../core/text.ts';
import { SvcError, UnavailableError } from '../core/errors.ts';
import { ModelKeyError, ModelUnreachableError } from './errors.ts';
import { retryAfterMs, type Verdict } from '../core/outbound.ts';
import type { Backend, ModelChoice } from './route.ts';


export const DEFAULT_BASE: Readonly<Partial<Record<Backend, string>>> = { providera: 'https://api.openai.com/v1', providerb: 'https://api.anthropic.com/v1' };

/** Errors meaning nothing listens there (or the name does not resolve): retrying will not help. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ConnectionRefused', 'FailedToOpenSocket', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** Errors meaning an open connection was cut: worth another try. */
const CUT = new Set(['ECONNRESET', 'ConnectionClosed', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT', 'UND_ERR_SOCKET']);
/** The SDK's errors for a reply it could not read. */
const BAD_REPLY = new Set(['AI_JSONParseError', 'AI_TypeValidationError', 'AI_InvalidResponseDataError', 'AI_EmptyResponseBodyError', 'AI_NoContentGeneratedError']);

/** The parts of the SDK's APICallError we use (matched by name so the SDK loads only when a call is made). */
type ApiCallError = Error & { statusCode?: number; responseHeaders?: Record<string, string> };

function apiCallError(err: unknown): ApiCallError | null {
  return err instanceof Error && err.name === 'AI_APICallError' ? (err as ApiCallError) : null;
}

/** The error and its causes, five deep at most. */
function* causeChain(err: unknown): Generator<object> {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) yield e;
}

/** A network error code on the error or anywhere down its cause chain. */
function networkCode(err: unknown): string | null {
  const codes = [...causeChain(err)].map((e) => (e as { code?: unknown }).code);
  return codes.find((code): code is string => typeof code === 'string' && (UNREACHABLE.has(code) || CUT.has(code))) ?? null;
}

/** An error of ours the SDK wrapped (an answer over the size cap, read by the SDK): reported as it is. */
function ownCause(err: unknown): SvcError | null {
  return [...causeChain(err)].find((e): e is SvcError => e instanceof SvcError) ?? null;
}

/** 408, 429, 5xx and cut connections are retried; the server's Retry-After sets the wait. */
export function classifyFailure(err: unknown): Verdict {
  const api = apiCallError(err);
  const status = api?.statusCode;
  if (api && status !== undefined) return { retry: status === 408 || status === 429 || status >= 500, afterMs: retryAfterMs(api.responseHeaders) };
  const code = networkCode(err);
  return { retry: code !== null && CUT.has(code), afterMs: null };
}

/** `key`: the key the request carried; a provider that echoes it in an error does not get it into ours. */
export type FailureContext = { choice: ModelChoice; attempts: number; timeoutS: number | null; key: string | null };

/** A failed call as one line the user can act on; errors that are not the backend's are returned unchanged. */
export function describeFailure(err: unknown, ctx: FailureContext): unknown {
  const { choice, attempts } = ctx;
  const { backend, model, role } = choice;
  const at = address(choice);
  if (ctx.timeoutS !== null) {
    return new UnavailableError(`${backend} gave no answer to the ${role} request to ${model} within ${ctx.timeoutS} s (SVC_LLM_TIMEOUT_S)`, 'raise SVC_LLM_TIMEOUT_S, or check that the backend is not stuck');
  }
  const own = ownCause(err);
  if (own) return own;
  const api = apiCallError(err);
  const status = api?.statusCode;
  if (api && status !== undefined && status >= 400) {
    const said = providerMessage(api.message, ctx.key);
    const keyVar = KEY_VARIABLE[backend];
    if ((status === 401 || status === 403) && keyVar) return new ModelKeyError(`${backend} refused the key in ${keyVar} (HTTP ${status}: ${said})`, `check ${keyVar}`);
    if (classifyFailure(err).retry) {
      const times = attempts > 1 ? ` ${attempts} times` : '';
      return new UnavailableError(`${backend} answered HTTP ${status}${times} to the ${role} request to ${model}: ${said}`, 'the service is busy or failing: try again later, or raise SVC_LLM_MAX_RETRIES');
    }
    return new SvcError(`${backend} at ${at} rejected the ${role} request to ${model} (HTTP ${status}): ${said}`);
  }
  const code = networkCode(err);
  if (code && UNREACHABLE.has(code)) {
    const variable = addressVariable(choice);
    return new ModelUnreachableError(`no model backend reachable at ${at} (${backend}${variable ? `; ${variable}` : ''})`, unreachableHint(backend));
  }
  if (code) return new UnavailableError(`the connection to ${at} was cut (${code}) ${attempts} time${attempts > 1 ? 's' : ''} during the ${role} request (${backend})`, 'check the backend and the network, or raise SVC_LLM_MAX_RETRIES');
  // a 2xx APICallError is a body the SDK could not parse
  if (err instanceof Error && (BAD_REPLY.has(err.name) || status !== undefined)) {
    return new SvcError(`${backend} at ${at} sent a reply to the ${role} request that is not a valid ${backend === 'providerb' ? 'Messages API' : 'chat completion'} answer: ${providerMessage(err.message, ctx.key)}`);
  }
  return err;
}

/** Where requests go, for messages: the configured base (without a user:password in it), else the provider's own. */
function address(choice: ModelChoice): string {
  return withoutCredentials(choice.baseUrl ?? DEFAULT_BASE[choice.backend] ?? choice.backend);
}

function addressVariable(choice: ModelChoice): string | null {
  if (choice.backend === 'localllm') return 'LOCALLLM_HOST';
  if (choice.backend === 'openai-compatible' || choice.baseUrl !== null) return 'llm.base_url or LLM_API_BASE';
  return null;
}

function unreachableHint(backend: Backend): string {
  if (backend === 'localllm') return 'start the local model daemon, or set LOCALLLM_HOST, or SVC_BACKEND with a provider key';
  if (backend === 'openai-compatible') return 'start the server, or set llm.base_url or LLM_API_BASE to where it listens';
  return 'check the network, or set LLM_API_BASE to a reachable API base';
}

/** Keys shorter than this are placeholders, not secrets; masking them would garble the message. */
const MIN_SECRET_LENGTH = 8;

/** A provider's error text as part of one line, with the key masked wherever the provider echoed it. */
function providerMessage(text: string, key: string | null): string {
  const masked = key && key.length >= MIN_SECRET_LENGTH ? text.split(key).join('***') : text;
  const flat = masked.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat || 'no message';
}
